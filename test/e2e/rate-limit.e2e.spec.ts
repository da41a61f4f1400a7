import { startTestApp, TestApp } from '../support/app';
import { createTestDatabase, testRedisUrl } from '../support/database';
import { json } from '../support/http';

const limited = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' };

async function expectLimited(response: Response) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await json(response)).toEqual({ message: expect.stringMatching(/too many requests/i) });
}

describe('rate limiting', () => {
  it('answers 429 with Retry-After and a message past the limit, and spares /health', async () => {
    const app = await startTestApp({ env: limited });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${app.url}/docs/json`)).status).toBe(200);
      await expectLimited(await fetch(`${app.url}/docs/json`));
      // A made-up credential does not buy a fresh budget.
      await expectLimited(await fetch(`${app.url}/docs/json`, { headers: { authorization: 'Bearer svc_made_up' } }));
      // Without TRUST_PROXY a forged X-Forwarded-For does not either.
      await expectLimited(await fetch(`${app.url}/docs/json`, { headers: { 'x-forwarded-for': '203.0.113.9' } }));
      for (let i = 0; i < 5; i++) expect((await fetch(`${app.url}/health`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  const redisUrl = testRedisUrl();
  (redisUrl ? it : it.skip)('shares the counts between instances through Redis', async () => {
    const db = await createTestDatabase();
    const env = { ...limited, REDIS_URL: redisUrl!, QUEUE_PREFIX: `rl-${db.name}` };
    const apps: TestApp[] = [];
    try {
      apps.push(await startTestApp({ env, db }), await startTestApp({ env, db }));
      expect((await fetch(`${apps[0].url}/docs/json`)).status).toBe(200);
      expect((await fetch(`${apps[1].url}/docs/json`)).status).toBe(200);
      expect((await fetch(`${apps[0].url}/docs/json`)).status).toBe(200);
      await expectLimited(await fetch(`${apps[1].url}/docs/json`));
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await db.drop();
    }
  });
});
