import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';

/** The repository's version: package.json is found upwards from the compiled file, wherever it was built to. */
export function packageVersion(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

/**
 * How this CLI names itself when it asks to sign in (`svc 1.4.0 on build-box`), so the person approving on the
 * device page sees which client and machine ask. One line of at most 64 characters, as the server requires.
 */
export function clientName(): string {
  const host = hostname()
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim();
  const name = `svc ${packageVersion()}${host ? ` on ${host}` : ''}`;
  return [...name].slice(0, 64).join('').trim();
}
