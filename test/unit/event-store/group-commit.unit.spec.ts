import { GroupCommit } from '../../../src/event-store/postgres/group-commit';

interface Item {
  key: string;
  value: string;
}

/** A commit function whose batches the test settles by hand. */
function recorder() {
  const batches: { items: Item[]; settle(outcomes?: PromiseSettledResult<string>[]): void; fail(error: Error): void }[] = [];
  const commit = (items: Item[]) =>
    new Promise<Promise<string>[]>((resolve, reject) => {
      batches.push({
        items,
        settle: (outcomes) =>
          resolve(
            (outcomes ?? items.map((i): PromiseSettledResult<string> => ({ status: 'fulfilled', value: `done ${i.value}` }))).map(
              (o) => (o.status === 'fulfilled' ? Promise.resolve(o.value) : Promise.reject(o.reason)),
            ),
          ),
        fail: reject,
      });
    });
  return { batches, commit };
}

const item = (value: string, key = value): Item => ({ key, value });
const values = (items: Item[]) => items.map((i) => i.value);
/** Lets queued microtasks and immediates run, as a batch's callers coming back would. */
const turn = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

function groupCommit(commit: (items: Item[]) => Promise<Promise<string>[]>, maxInFlight: number, maxBatch = 64) {
  return new GroupCommit(commit, { maxInFlight, maxBatch, keyOf: (i: Item) => i.key });
}

describe('GroupCommit', () => {
  it('commits a lone item at once, in a batch of its own', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 2);
    const result = group.submit(item('a'));
    // Within the same turn of the event loop: a few microtask hops, no timer.
    for (let hop = 0; hop < 3; hop++) await Promise.resolve();
    expect(batches.map((b) => values(b.items))).toEqual([['a']]);
    batches[0].settle();
    await expect(result).resolves.toBe('done a');
  });

  it('groups what arrives while every slot is busy into the next batch', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 1);
    const first = group.submit(item('a'));
    await turn();
    const rest = ['b', 'c', 'd'].map((v) => group.submit(item(v)));
    await turn();
    expect(batches).toHaveLength(1);

    batches[0].settle();
    await first;
    await turn();
    expect(batches.map((b) => values(b.items))).toEqual([['a'], ['b', 'c', 'd']]);
    batches[1].settle();
    await expect(Promise.all(rest)).resolves.toEqual(['done b', 'done c', 'done d']);
  });

  it('spreads what waits evenly over the free slots', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 2);
    ['a', 'b', 'c', 'd', 'e', 'f'].forEach((v) => void group.submit(item(v)));
    await turn();
    expect(batches.map((b) => values(b.items))).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
  });

  it('keeps a slot that has just finished until its callers have come back', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 2);
    // Callers come back through a few layers of async functions, each a microtask hop.
    const loop = async (v: string) => {
      await group.submit(item(v));
      for (let hop = 0; hop < v.charCodeAt(0) % 4; hop++) await null;
      return group.submit(item(`${v}2`));
    };
    ['a', 'b', 'c', 'd'].forEach((v) => void loop(v));
    await turn();
    batches[0].settle(); // a, b come straight back; c, d are still committing
    await turn();
    // Without the hold, a2 would have taken the free slot alone and b2 waited behind it.
    expect(batches.map((b) => values(b.items))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['a2', 'b2'],
    ]);
  });

  it('never puts two items with the same key in one batch, keeping their order', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 1);
    void group.submit(item('x1', 'x'));
    void group.submit(item('x2', 'x'));
    void group.submit(item('y1', 'y'));
    await turn();
    expect(batches.map((b) => values(b.items))).toEqual([['x1', 'y1']]);
    batches[0].settle();
    await turn();
    expect(values(batches[1].items)).toEqual(['x2']);
  });

  it('caps a batch at maxBatch', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 1, 2);
    ['a', 'b', 'c'].forEach((v) => void group.submit(item(v)));
    await turn();
    expect(values(batches[0].items)).toEqual(['a', 'b']);
  });

  it('frees the slot once the shared work is done, while an item that went on alone is still pending', async () => {
    let finishSlow!: (value: string) => void;
    const slow = new Promise<string>((resolve) => (finishSlow = resolve));
    const batches: string[][] = [];
    const group = groupCommit(async (items) => {
      batches.push(values(items));
      return items.map((i) => (i.value === 'slow' ? slow : Promise.resolve(`done ${i.value}`)));
    }, 1);
    const [slowResult, fast] = [group.submit(item('slow')), group.submit(item('fast'))];
    await expect(fast).resolves.toBe('done fast');
    await turn();
    await expect(group.submit(item('next'))).resolves.toBe('done next');
    expect(batches).toEqual([['slow', 'fast'], ['next']]);
    finishSlow('done slow');
    await expect(slowResult).resolves.toBe('done slow');
  });

  it('rejects an item its commit returned no outcome for, rather than leaving it waiting', async () => {
    const group = groupCommit(async () => [], 1);
    await expect(group.submit(item('a'))).rejects.toThrow(/no outcome/);
  });

  it('settles each item on its own, and a failed batch fails only its own items', async () => {
    const { batches, commit } = recorder();
    const group = groupCommit(commit, 2);
    const [a, b] = [group.submit(item('a')), group.submit(item('b'))];
    await turn();
    const [batch] = batches;
    expect(values(batch.items)).toEqual(['a']);
    batches[0].settle([{ status: 'rejected', reason: new Error('a refused') }]);
    batches[1].fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('a refused');
    await expect(b).rejects.toThrow('connection lost');

    const c = group.submit(item('c'));
    await turn();
    batches[2].settle();
    await expect(c).resolves.toBe('done c');
  });
});
