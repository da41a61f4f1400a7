import { stringify } from 'csv-stringify/sync';

export type Format = 'text' | 'json' | 'csv';

/** Rows as CSV with a header line, quoted by csv-stringify. */
export function toCsv<T extends object>(rows: T[], columns: Array<keyof T & string>): string {
  return stringify(
    rows.map((row) => columns.map((column) => cell(row[column]))),
    { header: true, columns },
  ).trimEnd();
}

export const toJson = (value: unknown): string => JSON.stringify(value, null, 2);

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Signed cents as dollars for people: -1234 -> -12.34. */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
