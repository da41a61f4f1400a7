import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startTestApp, TestApp } from '../support/app';

const ROOT = path.resolve(__dirname, '../..');
const GENERATED = path.join(ROOT, 'cli/generated/openapi.ts');

/**
 * The CLI shares no code with the server, only types generated from its OpenAPI
 * document. A route or schema change shows up here; SVC_UPDATE_API_TYPES=1 rewrites the file.
 */
describe('CLI API types', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it("match the running app's OpenAPI document", async () => {
    const document = await (await fetch(`${app.url}/docs/json`)).text();
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-openapi-'));
    try {
      await writeFile(path.join(dir, 'openapi.json'), document);
      execFileSync(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
          path.join(dir, 'openapi.json'),
          '--output',
          path.join(dir, 'openapi.ts'),
        ],
        { stdio: 'pipe' },
      );
      const fresh = await readFile(path.join(dir, 'openapi.ts'), 'utf8');
      if (process.env.SVC_UPDATE_API_TYPES === '1') await writeFile(GENERATED, fresh);
      const committed = await readFile(GENERATED, 'utf8').catch(() => '');
      if (committed !== fresh) {
        throw new Error(
          'cli/generated/openapi.ts is out of date: run SVC_UPDATE_API_TYPES=1 npx jest test/e2e/cli-openapi-drift',
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
