import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../src/config/app-config';
import { CURSOR_TTL_MS, CursorCodec } from '../../../src/platform/http/cursor-codec';

describe('cursor codec', () => {
  const codec = (secret: string | undefined, dataDir = mkdtempSync(path.join(tmpdir(), 'svc-cursor-'))) =>
    new CursorCodec({ cursorSecret: secret, dataDir } as AppConfig);
  const now = Date.parse('2026-11-24T10:00:00Z');
  const signed = codec('s3cret');
  const cursor = signed.encode('search', 'query-a', [7, 42, 'id'], now);
  const message = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('gives back the position it signed, for the same kind and query, within its lifetime', () => {
    expect(signed.decode(cursor, 'search', 'query-a', now + CURSOR_TTL_MS)).toEqual([7, 42, 'id']);
  });

  it('refuses a cursor whose body or signature was touched, or that another key signed', () => {
    const [body, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify([1, 'search', 'query-a', now, [7, 1e308, 'id']])).toString('base64url');
    expect(message(() => signed.decode(`${forged}.${signature}`, 'search', 'query-a', now))).toMatch(
      /not a cursor this service issued/,
    );
    expect(message(() => signed.decode(`${body}.${signature.slice(1)}A`, 'search', 'query-a', now))).toMatch(/not a cursor/);
    expect(message(() => signed.decode(body, 'search', 'query-a', now))).toMatch(/not a cursor/);
    expect(message(() => signed.decode('garbage', 'search', 'query-a', now))).toMatch(/not a cursor/);
    expect(message(() => codec('other').decode(cursor, 'search', 'query-a', now))).toMatch(/not a cursor/);
  });

  it('refuses a cursor of another query or kind, an expired one, and one issued in the future', () => {
    expect(message(() => signed.decode(cursor, 'search', 'query-b', now))).toMatch(/different query/);
    expect(message(() => signed.decode(cursor, 'wallet', 'query-a', now))).toMatch(/not a cursor/);
    expect(message(() => signed.decode(cursor, 'search', 'query-a', now + CURSOR_TTL_MS + 1))).toMatch(/expired/);
    const future = signed.encode('search', 'query-a', [1], now + 10 * 60 * 1000);
    expect(message(() => signed.decode(future, 'search', 'query-a', now))).toMatch(/not a cursor/);
  });

  it('without a configured secret, keeps one generated key under DATA_DIR, so cursors survive a restart', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-cursor-'));
    const before = codec(undefined, dataDir).encode('search', 'q', [1], now);
    expect(codec(undefined, dataDir).decode(before, 'search', 'q', now)).toEqual([1]);
    expect(message(() => codec(undefined).decode(before, 'search', 'q', now))).toMatch(/not a cursor/);
  });
});
