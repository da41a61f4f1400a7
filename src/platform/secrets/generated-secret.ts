import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * A secret generated once and kept in `dataDir/fileName` (mode 0600), for a
 * zero-configuration start: it survives restarts, and when two processes
 * start at once, the second uses the first one's.
 */
export function secretUnder(dataDir: string, fileName: string, generate: () => string): string {
  const file = path.join(dataDir, fileName);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = generate();
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return readFileSync(file, 'utf8').trim();
    }
  }
}
