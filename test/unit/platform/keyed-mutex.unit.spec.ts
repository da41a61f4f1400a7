import { KeyedMutex } from '../../../src/platform/concurrency/keyed-mutex';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedMutex', () => {
  it('runs work for one key one at a time, in arrival order, and keys independently', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let inside = 0;
    const work = (key: string, name: string) =>
      mutex.run(key, async () => {
        inside++;
        if (key === 'a') expect(inside).toBe(1);
        log.push(`${name} in`);
        await tick();
        log.push(`${name} out`);
        inside--;
        return name;
      });
    const results = await Promise.all([work('a', 'a1'), work('a', 'a2'), work('a', 'a3')]);
    expect(results).toEqual(['a1', 'a2', 'a3']);
    expect(log).toEqual(['a1 in', 'a1 out', 'a2 in', 'a2 out', 'a3 in', 'a3 out']);
  });

  it('goes on after a failure, and forgets keys once idle', async () => {
    const mutex = new KeyedMutex();
    const failed = mutex.run('k', async () => {
      throw new Error('boom');
    });
    const next = mutex.run('k', async () => 'after');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
    expect((mutex as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
  });
});
