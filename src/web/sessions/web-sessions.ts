import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InjectConfig } from '../../config/config.module';
import { AppConfig } from '../../config/app-config';
import { RevokeTokenCommand } from '../../modules/auth/commands/revoke-token/revoke-token.command';
import { Clock } from '../../platform/clock/clock';

export interface WebSession {
  idHash: string;
  userId: string;
  tokenId: string;
  /** The API token this session acts with; it never leaves the server. */
  apiToken: string;
  provider: string;
  /**
   * The secret this session's form tokens are made and checked with (@fastify/csrf-protection): derived
   * from the session id, so it lives and dies with the session, a new sign-in rotates it, and the
   * browser never holds it.
   */
  csrfSecret: string;
}

/**
 * A session's absolute lifetime, however busy: its API token is issued to expire then, so a session
 * nobody ends (no sign-out, no sweep) still leaves no token valid for ever.
 */
export const SESSION_MAX_DAYS = 30;

const logger = new Logger('WebSessions');

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');
const sealKey = (id: string) => Buffer.from(hkdfSync('sha256', id, 'svc-web', 'api-token-seal', 32));
const csrfSecretFor = (id: string) => Buffer.from(hkdfSync('sha256', id, 'svc-web', 'csrf-secret', 32)).toString('base64url');

/** The token sealed (AES-256-GCM) under a key only the session id, held by the browser alone, yields. */
function seal(sessionId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(sessionId), iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

function unseal(sessionId: string, sealed: string): string | null {
  try {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', sealKey(sessionId), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Server-side web sessions (`web_sessions`): an opaque id in the cookie, its hash here, idle expiry. */
@Injectable()
export class WebSessions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Records a web sign-in, sign-out or expiry in the server-side authentication audit; best effort. */
  async audit(kind: string, userId: string | null, detail: Record<string, unknown>): Promise<void> {
    await this.dataSource
      .query(`INSERT INTO auth_audit (occurred_at, kind, source, user_id, detail) VALUES ($1, $2, 'request', $3, $4)`, [
        this.clock.now(),
        kind,
        userId,
        JSON.stringify(detail),
      ])
      .catch((error: unknown) => logger.warn(`could not record ${kind}: ${error instanceof Error ? error.message : error}`));
  }

  /** A session that ended (expired, replaced, signed out): its API token is revoked (one already gone is fine) and the audit says why. */
  async retire(ended: { userId: string; tokenId: string }, kind: string, detail: Record<string, unknown>): Promise<void> {
    await this.commands.execute(new RevokeTokenCommand(ended.tokenId, ended.userId)).catch(() => undefined);
    await this.audit(kind, ended.userId, detail);
  }

  /** Answers the new session's id, the cookie's value. */
  async open(userId: string, tokenId: string, apiToken: string, provider: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.dataSource.query(
      `INSERT INTO web_sessions (id_hash, user_id, token_id, sealed_token, provider, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [hashId(id), userId, tokenId, seal(id, apiToken), provider, now],
    );
    return id;
  }

  /**
   * The live session an id names, its idle clock restarted; null when unknown or idle too long.
   * An expired one is removed and its token handed back, for the caller to revoke.
   */
  async resume(id: string): Promise<{ session: WebSession | null; expired?: { userId: string; tokenId: string } }> {
    if (!/^[\w-]{20,100}$/.test(id)) return { session: null };
    const now = this.clock.now();
    const { idleSince, bornSince } = this.limits(now);
    const [row] = await this.rows(
      `UPDATE web_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND last_seen_at > $3 AND created_at > $4
       RETURNING user_id, token_id, sealed_token, provider`,
      [hashId(id), now, idleSince, bornSince],
    );
    if (!row) return { session: null, expired: (await this.end(id)) ?? undefined };
    const apiToken = unseal(id, row.sealed_token);
    if (!apiToken) return { session: null };
    return {
      session: {
        idHash: hashId(id),
        userId: row.user_id,
        tokenId: row.token_id,
        apiToken,
        provider: row.provider,
        csrfSecret: csrfSecretFor(id),
      },
    };
  }

  /**
   * Removes every session idle past WEB_SESSION_IDLE_MINUTES or older than SESSION_MAX_DAYS, and hands
   * back their tokens, for the caller to revoke: a browser that never returns must not leave one live.
   */
  async sweep(): Promise<{ userId: string; tokenId: string }[]> {
    const { idleSince, bornSince } = this.limits(this.clock.now());
    const rows = await this.rows(
      `DELETE FROM web_sessions WHERE last_seen_at <= $1 OR created_at <= $2 RETURNING user_id, token_id`,
      [idleSince, bornSince],
    );
    return rows.map((row) => ({ userId: row.user_id, tokenId: row.token_id }));
  }

  private limits(now: Date): { idleSince: Date; bornSince: Date } {
    return {
      idleSince: new Date(now.getTime() - this.config.web.sessionIdleMinutes * 60_000),
      bornSince: new Date(now.getTime() - SESSION_MAX_DAYS * 24 * 60 * 60_000),
    };
  }

  /** TypeORM answers UPDATE and DELETE with [rows, count], SELECT with rows. */
  private async rows(sql: string, parameters: unknown[]): Promise<Record<string, any>[]> {
    const result = await this.dataSource.query(sql, parameters);
    return Array.isArray(result[0]) ? result[0] : result;
  }

  /** Ends the session a cookie names, live or idle; answers its token, for the caller to revoke. */
  async end(id: string): Promise<{ userId: string; tokenId: string } | null> {
    if (!/^[\w-]{20,100}$/.test(id)) return null;
    const [row] = await this.rows(`DELETE FROM web_sessions WHERE id_hash = $1 RETURNING user_id, token_id`, [hashId(id)]);
    return row ? { userId: row.user_id, tokenId: row.token_id } : null;
  }

  async close(idHash: string): Promise<void> {
    await this.dataSource.query('DELETE FROM web_sessions WHERE id_hash = $1', [idHash]);
  }

  // Sign-ins under way, keyed by the hash of their `state`; taken once.
  async beginSignIn(state: string, provider: string, nonce: string, codeVerifier: string, returnTo: string): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.query(`DELETE FROM web_sign_ins WHERE created_at < $1`, [new Date(now.getTime() - 15 * 60_000)]);
    await this.dataSource.query(
      `INSERT INTO web_sign_ins (state_hash, provider, nonce, code_verifier, return_to, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [hashId(state), provider, nonce, codeVerifier, returnTo, now],
    );
  }

  async takeSignIn(state: string, provider: string): Promise<{ nonce: string; codeVerifier: string; returnTo: string } | null> {
    const since = new Date(this.clock.now().getTime() - 15 * 60_000);
    const [row] = await this.rows(
      `DELETE FROM web_sign_ins WHERE state_hash = $1 RETURNING provider, nonce, code_verifier, return_to, created_at`,
      [hashId(state)],
    );
    if (!row || row.provider !== provider || new Date(row.created_at) < since) return null;
    return { nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to };
  }
}
