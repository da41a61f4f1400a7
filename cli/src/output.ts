import { SingleBar } from 'cli-progress';
import Table from 'cli-table3';
import { createColors } from 'picocolors';

/** Colours only when stdout is a terminal (and NO_COLOR is unset). */
export const colors = createColors(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);

export interface OutputOptions {
  json?: boolean;
}

/** `--json` prints exactly one JSON document on stdout; the human form prints `human()`'s text. */
export function emit(options: OutputOptions, value: unknown, human: () => string): void {
  if (options.json) process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  else {
    const text = human();
    if (text) process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
}

/** Messages for people (prompts, progress notes): stderr, so stdout stays machine-readable. */
export function note(message: string): void {
  process.stderr.write(message + '\n');
}

export function table(head: string[], rows: (string | number | boolean | null | undefined)[][]): string {
  const t = new Table({ head: head.map((h) => colors.bold(h)), style: { head: [], border: [] } });
  for (const row of rows) t.push(row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
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
    format: `${label} [{bar}] {percentage}% {value}/{total} bytes`,
    hideCursor: true,
  });
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
