import { Decider } from '../../src/event-store/fold-stream';
import { DomainError } from '../../src/platform/errors/domain-error';

/** given/when/then over a pure decider: `when(history, command)` is what it decides on the folded history. */
export function givenWhenThen<C, S, E extends { type: string; data: unknown }>(decider: Decider<C, S, E>) {
  const fold = (events: E[]): S => events.reduce(decider.evolve, decider.initialState);
  const when = (given: E[], command: C): E[] => decider.decide(command, fold(given));
  /** Runs the command and appends what it decided to the history. */
  const then = (given: E[], command: C): E[] => [...given, ...when(given, command)];
  return { fold, when, then };
}

/** The DomainError `run` throws; fails the test when it throws nothing or something else. */
export function errorOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

export const t0 = new Date('2026-11-22T10:00:00.000Z');
/** A moment `seconds` after t0. */
export const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
