import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import {
  EventStore,
  ExpectedState,
  LogPosition,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  WrongExpectedVersionError,
} from './event-store';
import { Snapshot, SnapshotStore } from './snapshot-store';
import { recordRead } from './write-tracker';

/**
 * A decider's opt-in to snapshots, for streams too long to fold whole on every
 * decision. The state must then be plain JSON (no Map, Set, Date or bigint),
 * hold no personal data (a snapshot would keep it past crypto-shredding), and
 * stay bounded in size. One decider snapshots a given stream.
 */
export interface SnapshotPolicy {
  /**
   * The shape of the state: bump it whenever the state, `evolve` or an
   * upcaster of the stream's events changes, so older snapshots are ignored.
   */
  version: number;
  /** How many events past the last snapshot a decision may read before it saves a new one. */
  every: number;
}

export interface FoldOptions {
  /** Where snapshots are kept. Used only with a policy: a decider's `snapshot`, or `policy` for `foldStream`. */
  snapshots?: SnapshotStore;
  policy?: SnapshotPolicy;
  /** States this process folded lately; used only with snapshots, under the same rules. */
  recent?: RecentFolds;
}

/**
 * The last state this process folded of each of a bounded number of streams. A
 * fold starts from it as from a snapshot kept in memory (trusted only while the
 * log still holds its event at its revision), which spares a hot stream the
 * snapshot read on every decision.
 */
export class RecentFolds {
  private readonly folds = new Map<string, RecentFold>();

  constructor(private readonly capacity = 10_000) {}

  get(streamId: string, version: number): RecentFold | undefined {
    const recent = this.folds.get(streamId);
    return recent?.version === version ? recent : undefined;
  }

  remember(streamId: string, recent: RecentFold): void {
    this.folds.delete(streamId); // re-inserted last: the map's order is least recently folded first
    this.folds.set(streamId, recent);
    if (this.folds.size > this.capacity) this.folds.delete(this.folds.keys().next().value as string);
  }
}

interface RecentFold {
  state: unknown;
  revision: number;
  eventId: string;
  version: number;
  /** The revision of the stored snapshot it grew from (-1 for none), so stored snapshots keep their pace. */
  snapshotRevision: number;
}

/**
 * Reads a stream and folds it into a decider's state: the common first half of
 * every command handler. `revision` is the stream's last revision (-1 when
 * empty), ready to pass as the expected revision of the append that follows.
 * With a snapshot store and a policy it reads only the events after the
 * stream's snapshot, and saves a new one when it read `every` or more.
 */
export async function foldStream<S, E extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  evolve: (state: S, event: E) => S,
  initial: S,
  options: FoldOptions = {},
): Promise<{ state: S; revision: number }> {
  const snapshotting = snapshottingOf(options.snapshots, options.policy);
  const recent = snapshotting && options.recent?.get(streamId, snapshotting.policy.version);
  const folded =
    (recent && (await foldFromRecent(store, streamId, evolve, recent))) ??
    (await foldFromSnapshot(store, streamId, evolve, initial, snapshotting));
  const saved = await saveSnapshotIfDue(snapshotting, streamId, folded, folded.snapshotRevision);
  if (snapshotting && options.recent && folded.eventId !== null)
    options.recent.remember(streamId, {
      state: folded.state,
      revision: folded.revision,
      eventId: folded.eventId,
      version: snapshotting.policy.version,
      snapshotRevision: saved ? folded.revision : folded.snapshotRevision,
    });
  return { state: folded.state, revision: folded.revision };
}

/** Folds the events after a recent fold onto its state; null when the log no longer holds its event at its revision. */
async function foldFromRecent<S, E extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  evolve: (state: S, event: E) => S,
  recent: RecentFold,
): Promise<Folded<S> | null> {
  const [at, ...tail] = await store.readStream(streamId, { fromRevision: recent.revision });
  if (!at || at.revision !== recent.revision || !sameId(at.eventId, recent.eventId)) return null;
  return { ...fold(tail, evolve, recent.state as S, recent, [at, ...tail]), snapshotRevision: recent.snapshotRevision };
}

/** The expected state to append at after folding to `revision` (-1: the stream does not exist yet). */
export const expectedAt = (revision: number): ExpectedState => (revision < 0 ? 'no_stream' : revision);

/** A pure aggregate: `decide` turns a command and the state into events, `evolve` folds events into the state. */
export interface Decider<C, S, E extends { type: string; data: unknown }> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState: S;
  /** Opt in to snapshots (see SnapshotPolicy); they are taken when a decision is given a snapshot store. */
  snapshot?: SnapshotPolicy;
}

export interface DecideOptions<S, E> {
  /**
   * Appends that commit in the same transaction as the decision (a uniqueness
   * reservation appended with `no_stream`, say). Asked on every attempt that
   * decided some events, with what was decided.
   */
  alongside?: (events: E[], state: S) => StreamAppend[];
  /** Runs before each append of a decision that has events: work the events depend on (a blob they name). */
  beforeAppend?: () => Promise<void>;
  /** Where the decider's snapshots are kept, for a decider with a snapshot policy; ignored otherwise. */
  snapshots?: SnapshotStore;
}

const CONFLICT_RETRIES = 6;

/**
 * Folds the stream, decides, and appends at the revision it read. When another
 * writer got there first, it decides again on the fresh state: a command that
 * is still valid then succeeds, one that is not fails with the decider's error.
 * Returns the events appended (none when the decider had nothing to change).
 */
export function decideOnStream<C, S, E extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  command: C,
  options: DecideOptions<S, E> = {},
): Promise<{ events: E[]; state: S }> {
  return retryOnConflict(() => decideOnce(store, streamId, decider, command, options));
}

/**
 * One fold, decide and append at the revision read, with no retry: a lost race
 * surfaces as WrongExpectedVersionError. For a caller that must redo more than
 * the decision on a conflict (find its stream again, say) inside `retryOnConflict`.
 */
export async function decideOnce<C, S, E extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  command: C,
  options: DecideOptions<S, E> = {},
): Promise<{ events: E[]; state: S }> {
  const snapshotting = snapshottingOf(options.snapshots, decider.snapshot);
  const folded = await foldFromSnapshot(store, streamId, decider.evolve, decider.initialState, snapshotting);
  const { state, revision } = folded;
  const events = decider.decide(command, state);
  if (events.length === 0) {
    // Nothing to change: the answer rests on the stream as folded, which may hold another writer's change that
    // the read models do not show yet (a retried request that lost the race to its twin). The request waits for
    // it as for its own writes, so what it answers is readable too.
    if (folded.read) recordRead(folded.read.position, folded.read.types);
    await saveSnapshotIfDue(snapshotting, streamId, folded, folded.snapshotRevision);
    return { events, state };
  }
  await options.beforeAppend?.();
  // A snapshot names the event at its revision, so the events need their ids before they are stored.
  const toAppend = (snapshotting ? withEventIds(events) : events) as unknown as NewEvent[];
  const append: StreamAppend = { streamId, events: toAppend, expected: expectedAt(revision) };
  const others = options.alongside?.(events, state) ?? [];
  const appended =
    others.length === 0
      ? await store.append(append.streamId, append.events, append.expected)
      : (await store.appendAtomically([append, ...others]))[0];
  const after = events.reduce(decider.evolve, state);
  // A retried append whose events were stored already is a no-op reporting where they were stored: what was
  // folded here is then not the state at that revision, and must not be saved as if it were.
  if (appended.revision === revision + events.length) {
    const last = { state: after, revision: appended.revision, eventId: toAppend[toAppend.length - 1].eventId ?? null };
    await saveSnapshotIfDue(snapshotting, streamId, last, folded.snapshotRevision);
  }
  return { events, state: after };
}

/** A short randomized pause before deciding again, so writers racing for one stream fall out of step. */
export function conflictBackoff(attempt: number): Promise<void> {
  const ms = Math.random() * 5 * 2 ** attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs a whole decision again when an append inside it lost a race
 * (WrongExpectedVersionError), for decisions that span several streams:
 * `work` must read, decide and append afresh each time.
 */
export async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= CONFLICT_RETRIES) throw error;
      await conflictBackoff(attempt);
    }
  }
}

const logger = new Logger('Snapshots');

interface Snapshotting {
  store: SnapshotStore;
  policy: SnapshotPolicy;
}

/** A stream folded up to `revision`, whose event there is `eventId` (null for an empty stream). */
interface Folded<S> {
  state: S;
  revision: number;
  eventId: string | null;
  /** The revision of the snapshot the fold started from, -1 when it read the whole stream. */
  snapshotRevision: number;
  /** Where the last event read is in the log, and the types read (the snapshot's event included); null when none. */
  read: { position: LogPosition; types: string[] } | null;
}

function snapshottingOf(store: SnapshotStore | undefined, policy: SnapshotPolicy | undefined): Snapshotting | null {
  return store && policy ? { store, policy } : null;
}

/**
 * Folds the events after the stream's snapshot onto its state, or the whole
 * stream when there is no snapshot to trust: none, another version, or one the
 * log contradicts (the event at its revision is missing or another, as after a
 * reset of the log), which is then discarded so a fresh one can replace it.
 */
async function foldFromSnapshot<S, E extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  evolve: (state: S, event: E) => S,
  initial: S,
  snapshotting: Snapshotting | null,
): Promise<Folded<S>> {
  const snapshot = snapshotting && (await loadSnapshot(snapshotting, streamId));
  if (snapshotting && snapshot) {
    const [at, ...tail] = await store.readStream(streamId, { fromRevision: snapshot.revision });
    if (at && at.revision === snapshot.revision && sameId(at.eventId, snapshot.eventId))
      return fold(tail, evolve, snapshot.state as S, snapshot, [at, ...tail]);
    logger.warn(`ignoring the snapshot of ${streamId}: its event ${snapshot.eventId} is not at revision ${snapshot.revision}`);
    await snapshotting.store.discard(snapshot).catch((error) => logger.warn(`could not discard it: ${describe(error)}`));
  }
  return fold(await store.readStream(streamId), evolve, initial, { revision: -1, eventId: null });
}

/**
 * Folds `events` onto `state`, the state at `from` (a snapshot's revision and event, or -1 for none); `read`
 * is every event read for it (the snapshot's own event too).
 */
function fold<S, E>(
  events: RecordedEvent[],
  evolve: (state: S, event: E) => S,
  state: S,
  from: { revision: number; eventId: string | null },
  read: RecordedEvent[] = events,
): Folded<S> {
  const last = events[events.length - 1];
  const lastRead = read[read.length - 1];
  return {
    state: events.map((e) => e as unknown as E).reduce(evolve, state),
    revision: last ? last.revision : from.revision,
    eventId: last ? last.eventId : from.eventId,
    snapshotRevision: from.revision,
    read: lastRead ? { position: lastRead.position, types: [...new Set(read.map((e) => e.type))] } : null,
  };
}

/** The stream's snapshot when it was taken with the policy's version; a failing store counts as none. */
async function loadSnapshot({ store, policy }: Snapshotting, streamId: string): Promise<Snapshot | null> {
  try {
    const snapshot = await store.load(streamId);
    return snapshot && snapshot.version === policy.version ? snapshot : null;
  } catch (error) {
    logger.warn(`could not load the snapshot of ${streamId}, folding the whole stream: ${describe(error)}`);
    return null;
  }
}

/**
 * Saves the state as the stream's snapshot once it is `every` or more events
 * past the snapshot the fold started from. Best effort: a failure leaves the
 * old snapshot, which only costs the next decisions some reading.
 */
async function saveSnapshotIfDue(
  snapshotting: Snapshotting | null,
  streamId: string,
  at: { state: unknown; revision: number; eventId: string | null },
  snapshotRevision: number,
): Promise<boolean> {
  if (!snapshotting || at.eventId === null || at.revision - snapshotRevision < snapshotting.policy.every) return false;
  const problem = notPlainJson(at.state);
  if (problem) {
    logger.warn(`not snapshotting ${streamId}: its state ${problem}`);
    return false;
  }
  const { store, policy } = snapshotting;
  return store
    .save({ streamId, revision: at.revision, eventId: at.eventId, version: policy.version, state: at.state })
    .then(() => true)
    .catch((error) => {
      logger.warn(`could not save a snapshot of ${streamId}: ${describe(error)}`);
      return false;
    });
}

/** Where `value` would not read back the same from JSON, or null when it would. */
function notPlainJson(value: unknown, path = ''): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `holds a non-finite number at ${path || 'its root'}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = value[i] === undefined ? `holds undefined at ${path}[${i}]` : notPlainJson(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      return `holds a ${value.constructor?.name ?? 'non-plain object'} at ${path || 'its root'}`;
    for (const [key, field] of Object.entries(value)) {
      // An undefined field reads back as a missing one, which plain-JSON state treats alike.
      const problem = field === undefined ? null : notPlainJson(field, path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    return null;
  }
  return `holds a ${typeof value} at ${path || 'its root'}`;
}

function withEventIds<E>(events: E[]): (E & { eventId: string })[] {
  return events.map((e) => ({ ...e, eventId: (e as { eventId?: string }).eventId ?? randomUUID() }));
}

/** Stores differ in how they spell a uuid. */
function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
