export interface EventuallyOptions {
  /** How long to keep trying; 20 s unless told. */
  timeoutMs?: number;
  /** The pause between attempts; 50 ms unless told. */
  intervalMs?: number;
  /** What is awaited, for the failure message; the check's source unless told. */
  description?: string;
}

/**
 * Retries `check` until it passes and returns what it returned. It passes when
 * it resolves to anything but `false`, so it may be a predicate or an assertion
 * (throw or return false: not yet). Past the deadline it throws, naming what
 * was awaited and carrying the last failure, so a wait never passes silently.
 * An attempt still running at the deadline is abandoned, not awaited.
 */
export async function eventually<T>(check: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const { timeoutMs = 20_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  let attempts = 0;
  let lastError: unknown;
  for (;;) {
    attempts++;
    try {
      const value = await beforeDeadline(check, deadline);
      if (value !== false) return value as Exclude<T, false>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut(options.description ?? sourceOf(check), timeoutMs, attempts, lastError);
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
}

const STILL_RUNNING = Symbol('still running at the deadline');

async function beforeDeadline<T>(check: () => T | Promise<T>, deadline: number): Promise<T> {
  const attempt = (async () => check())();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof STILL_RUNNING>((resolve) => {
    timer = setTimeout(() => resolve(STILL_RUNNING), Math.max(deadline - Date.now(), 0));
  });
  try {
    const outcome = await Promise.race([attempt, expired]);
    if (outcome === STILL_RUNNING) {
      attempt.catch(() => undefined); // abandoned: its late failure must not surface as unhandled
      throw new Error('the last attempt was still running at the deadline');
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(description: string, timeoutMs: number, attempts: number, lastError: unknown): Error {
  const last =
    lastError === undefined
      ? 'the check still returned false'
      : `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
  return new Error(`timed out after ${timeoutMs} ms (${attempts} attempts) waiting for ${description}; ${last}`, {
    cause: lastError,
  });
}

function sourceOf(check: () => unknown): string {
  const source = check.toString().replace(/\s+/g, ' ');
  return source.length > 120 ? `${source.slice(0, 117)}...` : source;
}
