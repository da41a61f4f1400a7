// C0 control characters and DEL. PostgreSQL refuses NUL in text and jsonb; the rest can corrupt terminals and logs.
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
const CONTROL_CHARS_GLOBAL = /[\x00-\x1f\x7f]/g;
// The same, except tab, line feed and carriage return.
const CONTROL_CHARS_EXCEPT_WHITESPACE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/**
 * `text` with every C0 control character and DEL replaced by a visible `\xHH`
 * escape (lower-case hex), so untrusted names can be stored and shown safely.
 * Everything else, backslashes included, is left as it is.
 */
export function escapeControlChars(text: string): string {
  return CONTROL_CHARS.test(text)
    ? text.replace(CONTROL_CHARS_GLOBAL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
    : text;
}

/** True when `text` holds a C0 control character or DEL; tab, LF and CR are allowed when `allowLineBreaks` is set. */
export function hasControlChars(text: string, options: { allowLineBreaks?: boolean } = {}): boolean {
  return (options.allowLineBreaks ? CONTROL_CHARS_EXCEPT_WHITESPACE : CONTROL_CHARS).test(text);
}
