/** Wakes waiting readers early: waits settle on `notify()` or after a timeout. */
export class WakeSignal {
  private listeners = new Set<() => void>();
  private notified = 0;

  /** How many times it was notified: a reader compares two readings to learn whether a wake-up came in between. */
  get notifications(): number {
    return this.notified;
  }

  notify(): void {
    this.notified++;
    const listeners = this.listeners;
    this.listeners = new Set();
    for (const listener of listeners) listener();
  }

  /** Calls `listener` on the next notify; returns a function that cancels it. */
  once(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves true when notified, false when the time ran out. */
  wait(timeoutMs: number): Promise<boolean> {
    return WakeSignal.any([this], timeoutMs);
  }

  /** Resolves true when any of the signals is notified, false after the timeout; leaves no timer behind. */
  static any(signals: WakeSignal[], timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const cancels: (() => void)[] = [];
      const finish = (woken: boolean) => {
        clearTimeout(timer);
        for (const cancel of cancels) cancel();
        resolve(woken);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      for (const signal of signals) cancels.push(signal.once(() => finish(true)));
    });
  }
}
