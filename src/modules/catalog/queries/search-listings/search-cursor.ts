import { createHash } from 'node:crypto';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';

/**
 * An opaque keyset cursor: the walk's snapshot (the catalog sequence when it
 * started), the last result's ordering value and id, and a fingerprint of the
 * search it belongs to.
 */
export interface SearchCursor {
  snapshot: number;
  value: number | string;
  id: string;
  search: string;
  issuedAt: number;
}

/** Older cursors are refused: the ordering history they read from is pruned. */
export const CURSOR_TTL_MS = 60 * 60 * 1000;

export function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([1, cursor.snapshot, cursor.value, cursor.id, cursor.search, cursor.issuedAt])).toString(
    'base64url',
  );
}

export function decodeCursor(text: string, search: string, now: number): SearchCursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parts) || parts.length !== 6 || parts[0] !== 1) throw invalid();
  const [, snapshot, value, id, searchOf, issuedAt] = parts;
  if (
    !Number.isSafeInteger(snapshot) ||
    !(typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && !Number.isNaN(Date.parse(value))) ||
    typeof id !== 'string' ||
    !isUuid(id) ||
    typeof searchOf !== 'string' ||
    !Number.isSafeInteger(issuedAt)
  ) {
    throw invalid();
  }
  if (searchOf !== search)
    throw new DomainError('invalid', 'This cursor belongs to a different search: keep the other parameters as they were');
  if (now - issuedAt > CURSOR_TTL_MS)
    throw new DomainError('invalid', 'This cursor has expired: start the walk again without a cursor');
  return { snapshot, value, id, search: searchOf, issuedAt };
}

/** Identifies a search by everything but its position. */
export function searchFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

function invalid(): DomainError {
  return new DomainError('invalid', 'cursor is not a cursor this service issued');
}
