import { randomUUID } from 'node:crypto';
import { Job } from 'bullmq';
import { AppConfig, loadConfig } from '../../../src/config/app-config';
import { Queues } from '../../../src/platform/queue/queues';
import { createTestDatabase, TestDatabase, testRedisUrl } from '../../support/database';

describe('queues', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  const backends: [string, () => AppConfig | undefined][] = [
    ['PostgreSQL (REDIS_URL unset)', () => loadConfig({ DATABASE_URL: db.url })],
    [
      'Redis',
      () => (testRedisUrl() ? loadConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: db.name }) : undefined),
    ],
  ];

  describe.each(backends)('on %s', (label, configFor) => {
    const run = label === 'Redis' && !testRedisUrl() ? it.skip : it;

    run('runs a job through a worker, and a job id derived from an event id enqueues once', async () => {
      const queues = new Queues(configFor()!);
      expect(queues.backend).toBe(label === 'Redis' ? 'redis' : 'postgres');
      try {
        await queues.ping();
        const name = `test-${randomUUID()}`;
        const processed: string[] = [];
        let resolveDone: () => void;
        const done = new Promise<void>((r) => (resolveDone = r));
        queues.worker<{ word: string }>(name, async (job: Job<{ word: string }>) => {
          processed.push(job.data.word);
          if (processed.length === 2) resolveDone();
          return job.data.word.toUpperCase();
        });
        const eventId = randomUUID();
        await queues.queue<{ word: string }>(name).add('echo', { word: 'first' }, { jobId: `scan-${eventId}` });
        await queues.queue<{ word: string }>(name).add('echo', { word: 'duplicate' }, { jobId: `scan-${eventId}` });
        await queues.queue<{ word: string }>(name).add('echo', { word: 'second' }, { jobId: `scan-${randomUUID()}` });
        await done;
        expect(processed.sort()).toEqual(['first', 'second']);
      } finally {
        await queues.onApplicationShutdown();
      }
    });
  });

  it('fails its ping quickly when Redis is unreachable', async () => {
    const queues = new Queues(loadConfig({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1' }));
    try {
      await expect(queues.ping()).rejects.toThrow();
    } finally {
      await queues.onApplicationShutdown();
    }
  });
});
