import { eventually } from '../../support/eventually';

/** A check that fails (throws) `failures` times, then returns `value`. */
function passingAfter<T>(failures: number, value: T) {
  let calls = 0;
  const check = async () => {
    calls++;
    if (calls <= failures) throw new Error(`attempt ${calls} failed`);
    return value;
  };
  return { check, calls: () => calls };
}

describe('eventually', () => {
  it('returns at once what a check that passes first time returns', async () => {
    const { check, calls } = passingAfter(0, 'ready');
    const started = Date.now();
    await expect(eventually(check, { intervalMs: 1_000 })).resolves.toBe('ready');
    expect(calls()).toBe(1);
    expect(Date.now() - started).toBeLessThan(500); // no pause before the first attempt
  });

  it('retries an assertion until it stops throwing, and returns its value', async () => {
    const { check, calls } = passingAfter(3, { id: 7 });
    await expect(eventually(check, { intervalMs: 5 })).resolves.toEqual({ id: 7 });
    expect(calls()).toBe(4);
  });

  it('retries a predicate until it is true', async () => {
    let calls = 0;
    await expect(eventually(() => ++calls >= 3, { intervalMs: 5 })).resolves.toBe(true);
    expect(calls).toBe(3);
  });

  it('counts an assertion that returns nothing as passed: only false and throwing mean not yet', async () => {
    await expect(eventually(() => expect(1).toBe(1))).resolves.toBeUndefined();
    await expect(eventually(async () => null)).resolves.toBeNull();
    await expect(eventually(() => 0)).resolves.toBe(0);
  });

  it('fails on timeout with the last error, naming what it waited for', async () => {
    const { check, calls } = passingAfter(Infinity, 'never');
    const failure = await eventually(check, { timeoutMs: 100, intervalMs: 10, description: 'the projection' }).catch(
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const last = `attempt ${calls()} failed`;
    expect((failure as Error).message).toMatch(/^timed out after 100 ms \(\d+ attempts\) waiting for the projection; /);
    expect((failure as Error).message).toContain(`last error: ${last}`);
    expect((failure as Error).cause).toEqual(new Error(last));
    expect(calls()).toBeGreaterThan(1);
  });

  it('keeps the message of a failed expect, diff included', async () => {
    const failure = await eventually(() => expect({ status: 401 }).toEqual({ status: 200 }), {
      timeoutMs: 50,
      intervalMs: 10,
      description: 'the token to work',
    }).catch((error: Error) => error);
    expect((failure as Error).message).toMatch(/waiting for the token to work; last error: .*"status": 200/s);
  });

  it('fails on timeout when a predicate stays false, naming the check when no description is given', async () => {
    const failure = await eventually(() => 1 + 1 === 3, { timeoutMs: 50, intervalMs: 10 }).catch((error: Error) => error);
    expect((failure as Error).message).toMatch(/waiting for .*1 \+ 1 === 3.*; the check still returned false$/);
    expect((failure as Error).cause).toBeUndefined();
  });

  it('fails at the deadline even when an attempt never settles', async () => {
    const started = Date.now();
    const failure = await eventually(() => new Promise<never>(() => undefined), {
      timeoutMs: 100,
      description: 'a hung call',
    }).catch((error: Error) => error);
    expect((failure as Error).message).toMatch(/waiting for a hung call; last error: the last attempt was still running/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('tries once more at the deadline rather than giving up early', async () => {
    const started = Date.now();
    let lastAttemptAt = 0;
    await eventually(
      () => {
        lastAttemptAt = Date.now();
        return false;
      },
      { timeoutMs: 100, intervalMs: 30 },
    ).catch(() => undefined);
    expect(lastAttemptAt - started).toBeGreaterThanOrEqual(99);
  });
});
