import { EventStore } from './event-store';

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
