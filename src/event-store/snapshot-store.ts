/**
 * A stream's folded state as of one of its events. `eventId` is the id of the
 * event at `revision`, so a snapshot can be checked against the log it is used
 * with; `version` is the decider's snapshot version the state was folded with.
 */
export interface Snapshot {
  streamId: string;
  revision: number;
  eventId: string;
  version: number;
  /** Plain JSON: stored as such and read back as such. */
  state: unknown;
}

/**
 * Where deciders keep snapshots of long streams. A cache, never the book of
 * record: a missing, stale or unusable snapshot only costs a full fold, so
 * callers treat every failure here as a miss.
 */
export abstract class SnapshotStore {
  abstract load(streamId: string): Promise<Snapshot | null>;
  /** Replaces the stream's snapshot only with a newer one (a higher revision), so racing savers never move it back. */
  abstract save(snapshot: Snapshot): Promise<void>;
  /** Removes the stream's snapshot if it is still this one: for a snapshot the log contradicts (a reset log, say). */
  abstract discard(snapshot: Snapshot): Promise<void>;
}
