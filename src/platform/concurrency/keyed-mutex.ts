/**
 * Runs work for one key at a time within this process, in arrival order.
 * Writers to one hot stream (a wallet under parallel metered calls) then
 * queue here instead of racing to the store and retrying on conflicts; other
 * processes still meet at the stream's expected revision.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last one out leaves no entry behind.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
