import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from paths and payloads are checked before they reach a uuid column, where a malformed one would be a 500. */
export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * A UUID decided by its cause: the same parts always give the same id. Events
 * a process manager appends take ids derived from the event that caused them
 * (`derivedId('TokenRevoked', cause.eventId, tokenId)`), so a redelivery
 * re-appends stored ids, which the event store treats as a no-op; job ids the same.
 * Shaped as a name-based (version 5 style) UUID over SHA-256.
 */
export function derivedId(kind: string, ...parts: string[]): string {
  const hash = createHash('sha256');
  // Length-prefixed, so ('ab', 'c') and ('a', 'bc') never collide.
  for (const part of [kind, ...parts]) hash.update(`${Buffer.byteLength(part)}:${part};`);
  const bytes = hash.digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
