import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API token plaintext: `svc_` + 160 random bits + a CRC-32 checksum, both in
 * base62. The checksum lets secret scanners recognise a token and lets the
 * server refuse a mistyped one without touching the database. Only the
 * SHA-256 of the plaintext is stored: the token already carries 160 bits of
 * entropy, so a slow password hash would add cost and no safety.
 */
export const TOKEN_PREFIX = 'svc_';
export { SCOPES, type Scope } from '../../../platform/http/access/principal';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_BYTES = 20;
const SECRET_CHARS = 28; // ceil(160 / log2(62))
const CHECKSUM_CHARS = 6; // ceil(32 / log2(62))
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${SECRET_CHARS + CHECKSUM_CHARS}}$`);

export function generateApiToken(random: (size: number) => Buffer = randomBytes): string {
  const secret = toBase62(BigInt(`0x${random(SECRET_BYTES).toString('hex')}`), SECRET_CHARS);
  return `${TOKEN_PREFIX}${secret}${checksum(secret)}`;
}

/** True when the text has the token's shape and its checksum matches. */
export function isWellFormedApiToken(text: string): boolean {
  if (!TOKEN_PATTERN.test(text)) return false;
  const body = text.slice(TOKEN_PREFIX.length);
  const secret = body.slice(0, SECRET_CHARS);
  return body.slice(SECRET_CHARS) === checksum(secret);
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function checksum(secret: string): string {
  return toBase62(BigInt(crc32(secret)), CHECKSUM_CHARS);
}

function toBase62(value: bigint, width: number): string {
  let text = '';
  for (let rest = value; rest > 0n; rest /= 62n) text = ALPHABET[Number(rest % 62n)] + text;
  return text.padStart(width, '0');
}
