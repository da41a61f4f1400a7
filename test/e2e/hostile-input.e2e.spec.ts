import { connect } from 'node:net';
import { EventStore } from '../../src/event-store/event-store';
import { newCaller, Caller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { json } from '../support/http';

/** What a sweep of every route with hostile input found, each answered with a clear 4xx and nothing stored. */
describe('hostile input', () => {
  let app: TestApp;
  let owner: Caller;
  let reader: Caller;
  let listingId: string;

  beforeAll(async () => {
    app = await startTestApp({ env: { REQUEST_TIMEOUT_MS: '1500' } });
    const seed = await CatalogSeed.for(app);
    [owner, reader] = await Promise.all([newCaller(app), newCaller(app, ['read'])]);
    const acme = await seed.vendor('acme', { id: owner.userId });
    ({ listingId } = await seed.listing({ vendor: acme, slug: 'pdf-tools' }));
    await seed.listing({ vendor: acme, slug: 'csv-tools' });
  });
  afterAll(async () => app?.close());

  const raw = (method: string, path: string, token: string, body: string) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('answers a lone UTF-16 surrogate in any free-text field with a 400 naming the field', async () => {
    for (const [method, path, body, field] of [
      ['POST', '/v1/auth/tokens', '{"name":"\\ud800x","scopes":["read"]}', 'name'],
      ['POST', '/v1/vendor/profile', '{"slug":"acme","displayName":"A\\udc00"}', 'displayName'],
      ['POST', '/v1/vendor/profile', '{"slug":"acme","displayName":"Acme","bio":"x\\ud800"}', 'bio'],
      ['POST', '/v1/listings/acme/pdf-tools/reviews', '{"rating":5,"body":"\\ud83d"}', 'body'],
      ['PATCH', `/v1/vendor/listings/${listingId}`, '{"title":"\\ud800"}', 'title'],
      ['PATCH', `/v1/vendor/listings/${listingId}`, '{"capabilities":{"\\ud800":1}}', 'capabilities'],
    ] as const) {
      const response = await raw(method, path, method === 'POST' && path.includes('reviews') ? reader.token : owner.token, body);
      expect({ path, field, status: response.status }).toEqual({ path, field, status: 400 });
      expect((await json(response)).message).toContain(field);
    }
  });

  it('refuses what the event store could not keep with a typed error, before anything is written', async () => {
    const store = app.server.app.get(EventStore);
    await expect(
      store.append('user-x', [{ type: 'UserProfileChanged', data: { name: 'a\ud800' } }], 'any'),
    ).rejects.toMatchObject({
      name: 'UnstorableEventError',
      path: 'name',
    });
    expect(await store.readStream('user-x')).toEqual([]);
  });

  it('says what is wrong with a body that is not UTF-8, and takes an escaped backslash for what it is', async () => {
    const response = await fetch(`${app.url}/v1/auth/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","scopes":["read"]}')]),
    });
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(/not valid UTF-8/);

    const literal = await raw('POST', '/v1/auth/tokens', owner.token, '{"name":"C:\\\\u0000dir","scopes":["read"]}');
    expect(literal.status).toBe(201);
    expect((await json(literal)).name).toBe('C:\\u0000dir');
    const nul = await raw('POST', '/v1/auth/tokens', owner.token, '{"name":"C:\\u0000dir","scopes":["read"]}');
    expect(nul.status).toBe(400);
  });

  it('refuses control characters in one-line names but keeps newlines and tabs in bodies', async () => {
    for (const name of ['evil\u001b[31mred', 'two\nlines', 'c1\u0085']) {
      const response = await owner.call('POST', '/v1/auth/tokens', { name, scopes: ['read'] });
      expect({ name, status: response.status }).toEqual({ name, status: 400 });
    }
    expect((await owner.call('PATCH', '/v1/users/me', { name: 'Ada\u0007' })).status).toBe(400);
    expect((await owner.call('POST', '/v1/vendor/profile', { slug: 'acme', displayName: 'Acme\r' })).status).toBe(400);
    const multiLine = await owner.call('POST', '/v1/vendor/profile', {
      slug: 'acme',
      displayName: 'Acme',
      bio: 'Line one\n\tLine two',
    });
    expect(multiLine.status).toBe(200);
  });

  it('refuses terminal control characters in a README, with a 400 naming it, and keeps line breaks and tabs', async () => {
    for (const readmeMd of [
      '# Hi \u001b[31mred',
      'osc \u001b]8;;https://evil.example\u0007x',
      'bell\u0007',
      'c1 \u009b2J',
      'del \u007f',
    ]) {
      const response = await owner.call('PATCH', `/v1/vendor/listings/${listingId}`, { readmeMd });
      expect({ readmeMd, status: response.status }).toEqual({ readmeMd, status: 400 });
      expect((await json(response)).message).toBe('readmeMd must not contain control characters');
    }
    const kept = await owner.call('PATCH', `/v1/vendor/listings/${listingId}`, { readmeMd: '# Hi\r\n\tthere' });
    expect(kept.status).toBe(200);
    expect((await json(kept)).readmeMd).toBe('# Hi\r\n\tthere');
  });

  it('defines null once for PATCH: clearable fields clear, any other is a 400 naming the field', async () => {
    expect((await owner.call('PATCH', '/v1/users/me', { name: 'Ada' })).status).toBe(200);
    const cleared = await owner.call('PATCH', '/v1/users/me', { name: null, avatarUrl: null });
    expect(cleared.status).toBe(200);
    expect((await json(cleared)).user).toMatchObject({ name: null, avatarUrl: null });

    const before = await app.server.app.get(EventStore).readStream(`listing-${listingId}`);
    for (const field of [
      'title',
      'description',
      'tags',
      'priceCents',
      'status',
      'pricingModel',
      'settlementMethods',
      'readmeMd',
    ]) {
      const response = await owner.call('PATCH', `/v1/vendor/listings/${listingId}`, { description: 'lost too', [field]: null });
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect((await json(response)).message).toContain(field);
    }
    const blank = await owner.call('PATCH', `/v1/vendor/listings/${listingId}`, { title: '   ' });
    expect(blank.status).toBe(400);
    const after = await app.server.app.get(EventStore).readStream(`listing-${listingId}`);
    expect(after.length).toBe(before.length);

    const clearable = await owner.call('PATCH', `/v1/vendor/listings/${listingId}`, {
      serviceEndpoint: null,
      capabilities: null,
    });
    expect(clearable.status).toBe(200);
  });

  it('refuses credentials in avatar and website URLs', async () => {
    expect((await owner.call('PATCH', '/v1/users/me', { avatarUrl: 'https://user:secret@img.example.com/a.png' })).status).toBe(
      400,
    );
    const website = await owner.call('POST', '/v1/vendor/profile', {
      slug: 'acme',
      displayName: 'Acme',
      website: 'https://user:secret@acme.example.com',
    });
    expect(website.status).toBe(400);
  });

  it('refuses unknown fields on routes that take no body', async () => {
    const response = await raw('POST', '/v1/auth/token/revoke', reader.token, '{"everything":true}');
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(/unknown fields: everything/);
    // The token still works: nothing was revoked.
    expect((await reader.call('GET', '/v1/auth/tokens')).status).toBe(200);
  });

  it('counts review length in code points in the validator and the domain alike', async () => {
    const emojis = (n: number) => '😀'.repeat(n);
    expect((await reader.call('POST', '/v1/listings/acme/pdf-tools/reviews', { rating: 5, body: emojis(1500) })).status).toBe(
      201,
    );
    const long = await reader.call('POST', '/v1/listings/acme/pdf-tools/reviews', { rating: 5, body: emojis(2001) });
    expect(long.status).toBe(400);
  });

  it('gives framework errors the one error shape, never echoing the request back', async () => {
    const badUrl = await fetch(`${app.url}/v1/listings/%FF/x`);
    expect(badUrl.status).toBe(400);
    expect(Object.keys(await json(badUrl))).toEqual(['message']);
    const longParam = await fetch(`${app.url}/v1/listings/${'a'.repeat(5000)}/x`);
    expect(longParam.status).toBe(414);
    const body = await longParam.text();
    expect(Object.keys(JSON.parse(body))).toEqual(['message']);
    expect(body.length).toBeLessThan(200);
  });

  it('answers forged, tampered and foreign search cursors with a 400, for every sort', async () => {
    const unsigned = (value: unknown) =>
      Buffer.from(JSON.stringify([1, 1, value, '00000000-0000-4000-8000-000000000000', 'x', Date.now()])).toString('base64url');
    for (const [sort, value] of [
      ['popular', 1e308],
      ['popular', 1.5],
      ['popular', '2026-01-01'],
      ['recent', 5],
      ['price_asc', 'abc'],
    ] as const) {
      const response = await fetch(`${app.url}/v1/search?sort=${sort}&cursor=${unsigned(value)}`);
      expect({ sort, value, status: response.status }).toEqual({ sort, value, status: 400 });
    }
    const first = await json(await fetch(`${app.url}/v1/search?sort=popular&per_page=1`));
    expect(first.nextCursor).toEqual(expect.any(String));
    const [body, signature] = first.nextCursor.split('.');
    const parts = JSON.parse(Buffer.from(body, 'base64url').toString());
    parts[4][1] = 1e308;
    const tampered = `${Buffer.from(JSON.stringify(parts)).toString('base64url')}.${signature}`;
    expect((await fetch(`${app.url}/v1/search?sort=popular&per_page=1&cursor=${tampered}`)).status).toBe(400);
    expect((await fetch(`${app.url}/v1/search?sort=recent&per_page=1&cursor=${first.nextCursor}`)).status).toBe(400);
    expect((await fetch(`${app.url}/v1/search?sort=popular&per_page=1&cursor=${first.nextCursor}`)).status).toBe(200);
  });

  it('answers a release upload with two files with a 400 that asks for one archive', async () => {
    const form = new FormData();
    form.append('archive', new Blob([Buffer.from('PK')]), 'a.zip');
    form.append('archive', new Blob([Buffer.from('PK')]), 'b.zip');
    form.append('priceCents', '0');
    const response = await owner.call('POST', '/v1/vendor/releases', form);
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(/one archive/);
  });

  it('does not let a slow client hold a connection: partial headers or body get a 408', async () => {
    const { port } = new URL(app.url);
    const answer = (payload: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(payload));
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        socket.setTimeout(20_000, () => {
          socket.destroy();
          resolve(received || 'held open');
        });
      });
    expect(await answer('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ')).toMatch(/^HTTP\/1\.1 408/);
    expect(
      await answer(
        'POST /v1/auth/tokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
      ),
    ).toMatch(/^HTTP\/1\.1 408/);
  });
});
