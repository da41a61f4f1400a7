import Fastify from 'fastify';
import { MAX_JSON_DEPTH, registerJsonBodyParser } from '../../src/platform/http/json-body';

describe('JSON body parser', () => {
  const app = Fastify();
  registerJsonBodyParser(app);
  app.post('/', async (request) => ({ body: request.body }));
  afterAll(() => app.close());

  const send = (payload: string) =>
    app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload });

  it('parses ordinary JSON, strings with brackets included', async () => {
    const response = await send('{"a": [1, {"b": "]]]}}}"}]}');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: { a: [1, { b: ']]]}}}' }] } });
  });

  it('refuses nesting past the bound with 400', async () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect((await send(ok)).statusCode).toBe(200);
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect((await send(deep)).statusCode).toBe(400);
  });

  it('refuses prototype poisoning and broken JSON with 400', async () => {
    expect((await send('{"__proto__": {"admin": true}}')).statusCode).toBe(400);
    expect((await send('{"a": ')).statusCode).toBe(400);
  });
});
