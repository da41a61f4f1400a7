import { startTestApp, TestApp } from '../support/app';
import { withAdmin } from '../support/database';
import { eventually } from '../support/eventually';
import { json } from '../support/http';

describe('GET /health when a dependency is down', () => {
  it('is degraded with 503 when the queue backend (Redis) is unreachable', async () => {
    const app = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const response = await fetch(`${app.url}/health`);
      expect(response.status).toBe(503);
      expect(await json(response)).toEqual({ ok: false, version: expect.any(String), status: 'degraded' });
    } finally {
      await app.close();
    }
  });

  it('is degraded with 503 when PostgreSQL refuses connections, and healthy again when it is back', async () => {
    const app = await startTestApp();
    const name = app.db.name;
    try {
      expect((await fetch(`${app.url}/health`)).status).toBe(200);
      await withAdmin(async (admin) => {
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      });
      const down = await fetch(`${app.url}/health`);
      expect(down.status).toBe(503);
      expect(await json(down)).toMatchObject({ ok: false, status: 'degraded' });

      await withAdmin((admin) => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
      await eventually(async () => expect((await fetch(`${app.url}/health`)).status).toBe(200), {
        timeoutMs: 15_000,
        intervalMs: 200,
        description: '/health to recover',
      });
    } finally {
      await withAdmin((admin) => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)).catch(() => undefined);
      await app.close();
    }
  });
});
