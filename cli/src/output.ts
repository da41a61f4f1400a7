import { randomInt } from 'node:crypto';
import { SingleBar } from 'cli-progress';
import Table from 'cli-table3';

/*
 * Everything the CLI prints goes through `write` here, and `write` passes it through `terminalText`: listing
 * titles, READMEs, vendor names, service results and the server's error messages are someone else's text, and
 * a terminal obeys the control sequences in what it is given (moving the cursor, rewriting lines, setting
 * hyperlinks and window titles, writing the clipboard). A test keeps every other file off process.stdout,
 * process.stderr and console.
 */

/**
 * Our own styles travel through the text as SGR sequences carrying a key drawn at random for this process,
 * which nothing the server sends can know: `terminalText` turns exactly those into plain SGR and takes out
 * every other sequence, so vendor text cannot even colour itself. cli-table3 measures them as zero-width,
 * as it does any SGR sequence, so columns stay aligned.
 */
const STYLE_KEY = randomInt(100_000_000, 1_000_000_000);
const STYLE_MARK = new RegExp(`\\x1b\\[${STYLE_KEY};(\\d{1,2})m`, 'g');

type Style = (text: string | number) => string;
const style =
  (enabled: boolean, open: number, close: number): Style =>
  (text) =>
    enabled ? `\x1b[${STYLE_KEY};${open}m${text}\x1b[${STYLE_KEY};${close}m` : String(text);

/** The styles the CLI uses, on or off. */
export function makeColors(enabled: boolean) {
  return {
    bold: style(enabled, 1, 22),
    dim: style(enabled, 2, 22),
    red: style(enabled, 31, 39),
    green: style(enabled, 32, 39),
    yellow: style(enabled, 33, 39),
    cyan: style(enabled, 36, 39),
  };
}

/** Colours only when stdout is a terminal (and NO_COLOR is unset). */
export const colors = makeColors(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);

/**
 * A complete escape sequence: an OSC, DCS, SOS, PM or APC string (hyperlinks, clipboard writes, titles) up to
 * its BEL or ST; a CSI (colours, cursor movement, erasing); any other ESC sequence; each in its 7-bit and C1
 * form. A string's body stops at any ESC or C1 character, so each attempt scans only up to the next one and
 * the whole stays linear in the text's length; an unterminated introducer goes alone, by the next rule.
 */
const ESCAPE_SEQUENCE =
  /(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b[\x20-\x2f]*[\x30-\x7e]/g;
/** Every control character but tab and line feed: C0, DEL and C1 (a lone carriage return rewrites the line). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Someone else's text made safe for a terminal: escape sequences and control characters out, tabs and line breaks kept. */
export function withoutTerminalControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n/g, '\n').replace(CONTROL, '');
}

/** Text to print: every part made safe, except our own style marks, which become the plain SGR they stand for. */
export function terminalText(text: string): string {
  return cleanKeepingStyles(text).replace(STYLE_MARK, (_mark, code: string) => `\x1b[${code}m`);
}

function cleanKeepingStyles(text: string): string {
  let out = '';
  let last = 0;
  for (const mark of text.matchAll(STYLE_MARK)) {
    out += withoutTerminalControls(text.slice(last, mark.index)) + mark[0];
    last = mark.index + mark[0].length;
  }
  return out + withoutTerminalControls(text.slice(last));
}

/**
 * `--json` output: JSON.stringify escapes C0 controls, but not DEL or C1 (U+009B is a CSI to many
 * terminals), so those are escaped too; the document stays valid JSON and means the same.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The one way to the terminal. */
export function write(stream: 'stdout' | 'stderr', text: string): void {
  process[stream].write(terminalText(text));
}

export interface OutputOptions {
  json?: boolean;
}

/** `--json` prints exactly one JSON document on stdout; the human form prints `human()`'s text. */
export function emit(options: OutputOptions, value: unknown, human: () => string): void {
  if (options.json) write('stdout', jsonText(value) + '\n');
  else {
    const text = human();
    if (text) write('stdout', text.endsWith('\n') ? text : text + '\n');
  }
}

/** Messages for people (prompts, progress notes): stderr, so stdout stays machine-readable. */
export function note(message: string): void {
  write('stderr', message + '\n');
}

export function table(head: string[], rows: (string | number | boolean | null | undefined)[][]): string {
  const t = new Table({ head: head.map((h) => colors.bold(h)), style: { head: [], border: [] } });
  // Cleaned before the table measures them, so a cell's width is what will be printed.
  for (const row of rows)
    t.push(row.map((cell) => (cell === null || cell === undefined ? '' : cleanKeepingStyles(String(cell)))));
  return t.toString();
}

export function keyValues(pairs: [string, unknown][]): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${colors.dim(k.padEnd(width))}  ${v === null ? '-' : String(v)}`)
    .join('\n');
}

export const cents = (amount: number | null | undefined, currency = 'usd') =>
  amount === null || amount === undefined ? '-' : `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** A byte-count progress bar on stderr; silent when stderr is not a terminal. */
export function progressBar(label: string, total: number): { update(done: number): void; stop(): void } {
  if (!process.stderr.isTTY || total <= 0) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream: process.stderr,
    // The bar draws itself; its label (a package name and version from the server) is cleaned here.
    format: `${withoutTerminalControls(label).replace(/[{}]/g, '')} [{bar}] {percentage}% {value}/{total} bytes`,
    hideCursor: true,
  });
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
