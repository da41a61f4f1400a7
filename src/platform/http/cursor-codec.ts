import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Global, Injectable, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { DomainError } from '../errors/domain-error';
import { secretUnder } from '../secrets/generated-secret';

/** How long a cursor stays valid after it was issued. */
export const CURSOR_TTL_MS = 60 * 60 * 1000;
/** Clocks of several instances disagree a little; a cursor from further ahead is forged. */
const CLOCK_SKEW_MS = 60 * 1000;
const VERSION = 1;
const MAX_CURSOR_LENGTH = 2048;

/**
 * The one codec for every cursor the API hands out (search today; wallet
 * transactions, session messages, the inbox and services next). A cursor is
 * opaque and signed: HMAC-SHA256 over its kind, the query it belongs to (a
 * fingerprint of filters and sort), its issue time and its position. A
 * tampered, foreign or expired cursor is a 400, so nothing a client invents
 * ever reaches SQL.
 */
@Injectable()
export class CursorCodec {
  private readonly key: Buffer;

  constructor(@InjectConfig() config: AppConfig) {
    this.key = config.cursorSecret ? Buffer.from(config.cursorSecret, 'utf8') : keyUnder(config.dataDir);
  }

  encode(kind: string, query: string, position: unknown[], issuedAt: number): string {
    const body = Buffer.from(JSON.stringify([VERSION, kind, query, issuedAt, position])).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The position a cursor holds, once its signature, kind, query and age check out. */
  decode(text: string, kind: string, query: string, now: number): unknown[] {
    const [body, signature, ...rest] = text.length <= MAX_CURSOR_LENGTH ? text.split('.') : [];
    if (!body || !signature || rest.length > 0 || !this.verify(body, signature)) throw invalidCursor();
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    if (!Array.isArray(parts) || parts.length !== 5 || parts[0] !== VERSION) throw invalidCursor();
    const [, cursorKind, cursorQuery, issuedAt, position] = parts;
    if (cursorKind !== kind || !Number.isSafeInteger(issuedAt) || !Array.isArray(position)) throw invalidCursor();
    if (cursorQuery !== query)
      throw new DomainError('invalid', 'This cursor belongs to a different query: keep the other parameters as they were');
    if (issuedAt > now + CLOCK_SKEW_MS) throw invalidCursor();
    if (now - issuedAt > CURSOR_TTL_MS) throw new DomainError('invalid', 'This cursor has expired: start again without a cursor');
    return position;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, 16).toString('base64url');
  }

  private verify(body: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

export function invalidCursor(): DomainError {
  return new DomainError('invalid', 'cursor is not a cursor this service issued');
}

/** With no CURSOR_SECRET, a key generated once and kept under DATA_DIR, so cursors survive restarts. */
function keyUnder(dataDir: string): Buffer {
  return Buffer.from(
    secretUnder(dataDir, 'cursor.key', () => randomBytes(32).toString('base64')),
    'base64',
  );
}

@Global()
@Module({ providers: [CursorCodec], exports: [CursorCodec] })
export class CursorModule {}
