import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/app-config';
import { runProjectionsCli } from '../../src/projections/cli/projections-cli';
import { startTestApp, TestApp } from '../support/app';
import { openPool } from '../support/database';
import { json } from '../support/http';
import { NotesFeatureModule } from '../support/notes-feature';

const root = path.resolve(__dirname, '../..');

describe('npm run projections', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ features: [NotesFeatureModule] });
  });
  afterAll(async () => app?.close());

  const cli = async (args: string[]) => {
    const lines: string[] = [];
    const code = await runProjectionsCli(
      args,
      loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent' }),
      (l) => lines.push(l),
      [NotesFeatureModule],
    );
    return { code, output: lines.join('\n') };
  };

  it('rebuilds a projection from the log while the API keeps serving', async () => {
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      const response = await fetch(`${app.url}/test/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      ids.push((await json(response)).id);
    }
    const pool = openPool(app.db.url, 1);
    await pool.query('DELETE FROM test_notes'); // a damaged read model
    await pool.end();

    let serving = true;
    const statuses: number[] = [];
    const traffic = (async () => {
      while (serving) {
        statuses.push((await fetch(`${app.url}/health`)).status);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const { code, output } = await cli(['rebuild', 'test-notes']);
    serving = false;
    await traffic;

    expect(code).toBe(0);
    expect(output).toMatch(/test-notes: rebuilt and caught up/);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (const id of ids) expect((await fetch(`${app.url}/test/notes/${id}`)).status).toBe(200);
  });

  it('prints each processor with its checkpoint and lag', async () => {
    const { code, output } = await cli(['status']);
    expect(code).toBe(0);
    expect(output).toMatch(/^test-notes\s+projection\s+checkpoint \d+\/\d+\s+lag\s+0\s+active/m);
    expect(output).toMatch(/^event-bus-relay\s+process/m);
  });

  it('refuses unknown projections and commands', async () => {
    expect((await cli(['rebuild', 'nope'])).code).toBe(2);
    expect((await cli(['explode'])).code).toBe(2);
  });

  it('runs as a command against the configured database', async () => {
    const main = path.join(root, 'dist/projections/cli/main.js');
    if (!existsSync(main)) throw new Error('build first: npm run build (npm test does)');
    const { stdout } = await promisify(execFile)(process.execPath, [main, 'status'], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: app.db.url },
    });
    expect(stdout).toMatch(/^event-bus-relay\s+process\s+checkpoint/m);
  });
});
