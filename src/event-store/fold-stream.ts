import { EventStore, NewEvent, StreamAppend, WrongExpectedVersionError } from './event-store';

/**
 * Reads a stream and folds it into a decider's state: the common first half of
 * every command handler. `revision` is the stream's last revision (-1 when
 * empty), ready to pass as the expected revision of the append that follows.
 */
export async function foldStream<S, E extends { type: string; data: unknown }>(
  store: EventStore,
  streamId: string,
  evolve: (state: S, event: E) => S,
  initial: S,
): Promise<{ state: S; revision: number }> {
  const history = await store.readStream(streamId);
  return { state: history.map((e) => e as unknown as E).reduce(evolve, initial), revision: history.length - 1 };
}

/** A pure aggregate: `decide` turns a command and the state into events, `evolve` folds events into the state. */
export interface Decider<C, S, E extends { type: string; data: unknown }> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState: S;
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
  const { state, revision } = await foldStream(store, streamId, decider.evolve, decider.initialState);
  const events = decider.decide(command, state);
  if (events.length === 0) return { events, state };
  await options.beforeAppend?.();
  const append: StreamAppend = {
    streamId,
    events: events as unknown as NewEvent[],
    expected: revision < 0 ? 'no_stream' : revision,
  };
  const others = options.alongside?.(events, state) ?? [];
  if (others.length === 0) await store.append(append.streamId, append.events, append.expected);
  else await store.appendAtomically([append, ...others]);
  return { events, state: events.reduce(decider.evolve, state) };
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
