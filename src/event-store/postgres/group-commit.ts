export interface GroupCommitOptions<T> {
  /** Batches committing at once; further work waits and joins the next batch. */
  maxInFlight: number;
  maxBatch: number;
  /** Items with the same key never share a batch: the later waits for the next one. */
  keyOf(item: T): string;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R | Promise<R>): void;
  reject(error: unknown): void;
}

/**
 * Lets concurrent callers share commits. Work runs at once while fewer than
 * `maxInFlight` batches are committing, so a lone caller waits for nobody;
 * under load, whatever queued behind the busy batches goes out in batches.
 * `commit` resolves once the shared work is done, with each item's outcome:
 * an outcome may still be pending (work that went on alone), and its slot is
 * free all the same, so one slow item never holds up the others.
 *
 * Work waiting is spread evenly over the free slots: were the first caller to
 * take a slot alone, it would come back alone every time while everyone else
 * crowded into the other slots. For the same reason a finished batch keeps
 * its slot until the callers it settled have had their turn to come back.
 */
export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = [];
  /** Batches committing. */
  private running = 0;
  /** Finished batches whose callers have not yet had their turn to come back. */
  private held = 0;
  private dispatchQueued = false;

  constructor(
    private readonly commit: (batch: T[]) => Promise<Promise<R>[]>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // After the current tick, so that callers arriving together are spread together.
      if (!this.dispatchQueued) {
        this.dispatchQueued = true;
        queueMicrotask(() => {
          this.dispatchQueued = false;
          this.dispatch();
        });
      }
    });
  }

  private dispatch(): void {
    const { maxInFlight, maxBatch } = this.options;
    while (this.running + this.held < maxInFlight && this.waiting.length > 0) {
      // Held slots count as free when sharing out, or the first slot back would take everything.
      const batch = this.takeBatch(Math.min(maxBatch, Math.ceil(this.waiting.length / (maxInFlight - this.running))));
      this.running++;
      Promise.resolve()
        .then(() => this.commit(batch.map((w) => w.item)))
        .then(
          (outcomes) =>
            batch.forEach((w, i) =>
              w.resolve(outcomes[i] ?? Promise.reject(new Error('the commit returned no outcome for this item'))),
            ),
          (error: unknown) => batch.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          this.running--;
          this.held++;
          setImmediate(() => {
            this.held--;
            this.dispatch();
          });
        });
    }
  }

  /** The oldest waiting items, at most one per key, up to `size`. */
  private takeBatch(size: number): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const left: Waiting<T, R>[] = [];
    const keys = new Set<string>();
    for (const waiting of this.waiting) {
      const key = this.options.keyOf(waiting.item);
      if (batch.length < size && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else {
        left.push(waiting);
      }
    }
    this.waiting = left;
    return batch;
  }
}
