import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { json } from '../support/http';
import { NoteAddedListener, NotesFeatureModule } from '../support/notes-feature';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('../../package.json');

describe('HTTP platform', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ features: [NotesFeatureModule], env: { BODY_LIMIT_BYTES: '65536' } });
  });
  afterAll(async () => app?.close());

  const call = (path: string, init?: RequestInit) => fetch(`${app.url}${path}`, init);
  const post = (path: string, body: unknown) =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('answers GET /health exactly as specified', async () => {
    const response = await call('/health');
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ ok: true, version, status: 'healthy' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await call('/v1/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await json(response)).toEqual({ message: expect.any(String) });
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const response = await call('/test/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text": ',
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message: expect.any(String) });
  });

  it('names the offending field in validation errors, and refuses unknown fields', async () => {
    const tooLong = await post('/test/notes', { text: 'x'.repeat(51) });
    expect(tooLong.status).toBe(400);
    expect((await json(tooLong)).message).toMatch(/^text /);
    const unknown = await post('/test/notes', { text: 'ok', admin: true });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).message).toMatch(/admin/);
  });

  it('lets the caller read its own write: the GET right after a 2xx command sees it', async () => {
    const created = await post('/test/notes', { text: 'read me' });
    expect(created.status).toBe(201);
    const { id } = await json(created);
    const read = await call(`/test/notes/${id}`);
    expect(read.status).toBe(200);
    expect(await json(read)).toEqual({ id, text: 'read me' });
  });

  it('feeds the EventBus after commit, and one failing handler does not stop the next event', async () => {
    await post('/test/notes', { text: 'explode' });
    await post('/test/notes', { text: 'after the failure' });
    await eventually(() => expect(NoteAddedListener.seen).toContain('after the failure'), {
      intervalMs: 20,
      description: 'the event after the failing one to reach its handler',
    });
    expect(NoteAddedListener.seen).not.toContain('explode');
  });

  it('tags every response with a request id, keeping a sane incoming one', async () => {
    const generated = await call('/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await call('/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const replaced = await call('/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('serves an OpenAPI 3 document generated from the DTOs, and Swagger UI', async () => {
    const document = await json(await call('/docs/json'));
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/health'].get).toBeDefined();
    expect(document.paths['/test/notes'].post).toBeDefined();
    expect(JSON.stringify(document.components.schemas)).toContain('"maxLength":50');
    const ui = await call('/docs');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/swagger/i);
  });

  it('never answers 500 to malformed, oversized or mistyped bodies on any route', async () => {
    const document = await json(await call('/docs/json'));
    const routes: [string, string][] = [];
    for (const [path, operations] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of Object.keys(operations)) routes.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, randomUUID())]);
    }
    expect(routes.length).toBeGreaterThan(1);
    const bodies: [string, string][] = [
      ['malformed', '{"a": [1, 2'],
      ['oversized', JSON.stringify({ text: 'x'.repeat(70_000) })],
      ['array', '[1, 2, 3]'],
      ['scalar', '42'],
      ['null', 'null'],
      ['deep', '['.repeat(5_000) + ']'.repeat(5_000)],
      ['wrong types', JSON.stringify({ text: { nested: true }, id: [], cents: 'many' })],
    ];
    const failures: string[] = [];
    for (const [method, path] of routes) {
      for (const [label, body] of bodies) {
        const response = await call(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : body,
        });
        const text = await response.text();
        if (response.status >= 500) failures.push(`${method} ${path} (${label}): ${response.status} ${text}`);
        else if (response.status >= 400 && !JSON.parse(text).message) failures.push(`${method} ${path} (${label}): no message`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers an unsupported content type with a 4xx, not a 500', async () => {
    const response = await call('/test/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/x-unknown' },
      body: 'text=hi',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await json(response)).toEqual({ message: expect.any(String) });
  });
});
