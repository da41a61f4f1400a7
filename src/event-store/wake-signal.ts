/** Wakes waiting readers early: a promise per wait that settles on `notify()` or after a timeout. */
export class WakeSignal {
  private waiters = new Set<(woken: boolean) => void>();

  notify(): void {
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const resolve of waiters) resolve(true);
  }

  /** Resolves true when notified, false when the time ran out. */
  wait(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(woken);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(done);
    });
  }
}
