import { createHash } from 'node:crypto';
import { CursorCodec, invalidCursor } from '../../../../platform/http/cursor-codec';
import { isUuid } from '../../../../platform/ids';

/**
 * Where a search walk stands: the walk's snapshot (the catalog sequence when
 * it started), the last result's ordering value and id. Carried in a signed
 * cursor bound to the search's fingerprint.
 */
export interface SearchCursor {
  snapshot: number;
  value: number | string;
  id: string;
}

/** What an ordering value must be for each column type: a forged-looking one never reaches SQL. */
export type SortValueKind = 'integer' | 'number' | 'timestamp';

const KIND = 'search';

export function encodeSearchCursor(codec: CursorCodec, cursor: SearchCursor, search: string, now: number): string {
  return codec.encode(KIND, search, [cursor.snapshot, cursor.value, cursor.id], now);
}

export function decodeSearchCursor(
  codec: CursorCodec,
  text: string,
  search: string,
  valueKind: SortValueKind,
  now: number,
): SearchCursor {
  const position = codec.decode(text, KIND, search, now);
  const [snapshot, value, id] = position;
  const valueFits =
    valueKind === 'integer'
      ? Number.isSafeInteger(value)
      : valueKind === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : typeof value === 'string' && !Number.isNaN(Date.parse(value));
  if (position.length !== 3 || !Number.isSafeInteger(snapshot) || !valueFits || typeof id !== 'string' || !isUuid(id))
    throw invalidCursor();
  return { snapshot: snapshot as number, value: value as number | string, id };
}

/** Identifies a search by everything but its position. */
export function searchFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}
