import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Pool } from 'pg';

const PREFIX = 'pd1:';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a shredded field reads back as. */
export const ERASED = null;

export class SubjectErasedError extends Error {
  constructor(readonly subjectId: string) {
    super(`personal data of ${subjectId} has been erased`);
    this.name = 'SubjectErasedError';
  }
}

/**
 * Crypto-shredding for personal data inside events: each subject (a user) has
 * its own AES-256-GCM key; fields are stored as `pd1:<subject>:<payload>`
 * strings, and destroying the key makes every copy in the log unreadable,
 * so neither a read model nor a replay can bring the data back.
 */
export class PersonalDataVault {
  constructor(private readonly pool: Pool) {}

  async seal(subjectId: string, value: string): Promise<string> {
    const key = await this.keyFor(subjectId);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, iv);
    cipher.setAAD(Buffer.from(subjectId));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const payload = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    return `${PREFIX}${encodeURIComponent(subjectId)}:${payload}`;
  }

  /** Returns a copy of `data` with every sealed string opened, or `ERASED` where the key is gone. */
  async open<T>(data: T): Promise<T> {
    const subjects = new Set<string>();
    collectSubjects(data, subjects);
    if (subjects.size === 0) return data;
    const keys = await this.loadKeys([...subjects]);
    return openValue(data, keys) as T;
  }

  async openMany<T>(items: T[]): Promise<T[]> {
    const subjects = new Set<string>();
    for (const item of items) collectSubjects(item, subjects);
    if (subjects.size === 0) return items;
    const keys = await this.loadKeys([...subjects]);
    return items.map((item) => openValue(item, keys) as T);
  }

  /** Irreversible. Later `seal` calls for the subject are refused. */
  async shred(subjectId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO personal_data_keys (subject_id, key, destroyed_at) VALUES ($1, NULL, now())
       ON CONFLICT (subject_id) DO UPDATE SET key = NULL, destroyed_at = coalesce(personal_data_keys.destroyed_at, now())`,
      [subjectId],
    );
  }

  private async keyFor(subjectId: string): Promise<Buffer> {
    await this.pool.query(
      'INSERT INTO personal_data_keys (subject_id, key) VALUES ($1, $2) ON CONFLICT (subject_id) DO NOTHING',
      [subjectId, randomBytes(32)],
    );
    const { rows } = await this.pool.query<{ key: Buffer | null }>('SELECT key FROM personal_data_keys WHERE subject_id = $1', [
      subjectId,
    ]);
    const key = rows[0]?.key;
    if (!key) throw new SubjectErasedError(subjectId);
    return key;
  }

  /** Each subject's key, or `null` where the key was destroyed; subjects never seen are absent. */
  private async loadKeys(subjectIds: string[]): Promise<Map<string, Buffer | null>> {
    const { rows } = await this.pool.query<{ subject_id: string; key: Buffer | null }>(
      'SELECT subject_id, key FROM personal_data_keys WHERE subject_id = ANY($1)',
      [subjectIds],
    );
    return new Map(rows.map((row) => [row.subject_id, row.key]));
  }
}

function parseSealed(value: string): { subjectId: string; payload: string } | null {
  if (!value.startsWith(PREFIX)) return null;
  const rest = value.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon < 0) return null;
  try {
    return { subjectId: decodeURIComponent(rest.slice(0, colon)), payload: rest.slice(colon + 1) };
  } catch {
    return null; // not something the vault wrote
  }
}

function collectSubjects(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    const sealed = parseSealed(value);
    if (sealed) into.add(sealed.subjectId);
  } else if (Array.isArray(value)) {
    for (const item of value) collectSubjects(item, into);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collectSubjects(item, into);
  }
}

/**
 * Opening never throws: user input can look like a sealed value, so anything
 * that does not decrypt under a known subject's key is left as it was. Only a
 * value of a subject whose key was destroyed reads as erased.
 */
function openValue(value: unknown, keys: Map<string, Buffer | null>): unknown {
  if (typeof value === 'string') {
    const sealed = parseSealed(value);
    if (!sealed || !keys.has(sealed.subjectId)) return value;
    const key = keys.get(sealed.subjectId);
    if (!key) return ERASED;
    try {
      return decrypt(sealed.subjectId, sealed.payload, key);
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((item) => openValue(item, keys));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, openValue(v, keys)]));
  }
  return value;
}

function decrypt(subjectId: string, payload: string, key: Buffer): string {
  const bytes = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(subjectId));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
