/**
 * Text PostgreSQL's text and jsonb cannot hold, or that is not Unicode at
 * all: U+0000, and UTF-16 surrogates without their pair (JSON can spell them
 * as `\ud800`). Found anywhere in a value, it is named by its path, so the
 * caller learns which field to fix.
 */
export function findUnstorableText(value: unknown, path = ''): { path: string; problem: string } | null {
  if (typeof value === 'string') return textProblem(value, path || 'value');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      const found = textProblem(key, `the key of ${here}`) ?? findUnstorableText(item, here);
      if (found) return found;
    }
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string, path: string): { path: string; problem: string } | null {
  if (LONE_SURROGATE.test(text)) return { path, problem: 'is not well-formed Unicode (it holds a lone UTF-16 surrogate)' };
  if (text.includes('\u0000')) return { path, problem: 'must not contain NUL (U+0000) characters' };
  return null;
}

/** C0 controls other than tab and newline, DEL and C1 controls (which include the ANSI escape introducers). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** For multi-line text: carriage returns are kept too. */
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Line breaks have no place in a name shown on one line. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** Whether a one-line name (user name, display name, token name, title) is free of control characters and line breaks. */
export function isSingleLineText(text: string): boolean {
  return !CONTROL.test(text) && !LINE_BREAK.test(text);
}

/** Whether a multi-line body (review, description, README) is free of control characters other than tab and line breaks. */
export function isMultiLineText(text: string): boolean {
  return !CONTROL_MULTILINE.test(text);
}

/**
 * Text with terminal control sequences and control characters taken out: whole ANSI sequences (CSI such
 * as colours and cursor movement; OSC, DCS, SOS, PM and APC strings such as hyperlinks, clipboard writes
 * and window titles; other ESC sequences), in their 7-bit and C1 forms, then every other control
 * character `isMultiLineText` refuses (tab, line feed and carriage return stay). For text a vendor did not
 * type into a field of ours (a README inside an uploaded archive, text stored before the rule, pages),
 * where refusing the whole for a stray sequence would be hostile.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(TERMINAL_SEQUENCE, '').replace(CONTROL_MULTILINE_ALL, '');
}
/**
 * A string sequence ends at BEL or ST; its body stops at any ESC or C1 character, so every attempt scans
 * only up to the next one and the whole replacement stays linear in the text's length. An unterminated
 * introducer falls through to the last alternative, or to the character rule, and only it goes.
 */
const TERMINAL_SEQUENCE =
  /(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b[\x20-\x2f]*[\x30-\x7e]/g;
const CONTROL_MULTILINE_ALL = new RegExp(CONTROL_MULTILINE.source, 'g');

/** Length in Unicode code points, the unit every length limit of the API counts in (an emoji is one). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
