import { createHash } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { IssuedToken, IssueTokenCommand } from '../../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import { EnsureUserCommand } from '../../../src/modules/users/commands/ensure-user/ensure-user.command';
import { WebSessions } from '../../../src/web/sessions/web-sessions';
import { startTestApp, TestApp } from '../../support/app';
import { freePort } from '../../support/browser';
import { CatalogSeed } from '../../support/catalog-seed';

/** The web app over plain HTTP: headers, cookies, CSRF, anonymous browsing, safe READMEs. */
describe('web: pages over HTTP', () => {
  let app: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp({ env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, WEB_LOCAL_IDP: 'true' } });
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor('acme-web', { displayName: 'Acme Web', verified: true });
    await seed.listing({
      vendor,
      slug: 'lint-rules',
      title: 'Lint rules <b>bold</b>',
      description: 'Rules that lint',
      type: 'rule',
      priceCents: 1250,
      readmeMd:
        '# Hello\n\n<script>alert(1)</script>\n\n[click](javascript:alert(2)) and [docs](https://example.com)\n\n<img src=x onerror=alert(3)>',
    });
    // Vendor text stored before the API refused control characters.
    const { listingId } = await seed.listing({ vendor, slug: 'escapes', title: 'Escapes', description: 'Plain.' });
    await seed.legacyEdit(listingId, {
      title: 'Escape \x1b[31mtitle\x1b[0m\x07',
      description: 'Desc \x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\ \x9b2J\x7fdone',
      readmeMd: '# Readme \x1b]52;c;ZXZpbA==\x07body\n\nmore \x1b[2Ktext\x85',
    });
  });
  afterAll(async () => app?.close());

  const get = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { redirect: 'manual', ...init });

  it('anonymous visitors browse the catalogue; pages carry a content security policy and the usual headers', async () => {
    const home = await get('/?q=lint');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    const csp = home.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    expect(home.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(home.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await home.text();
    expect(html).toContain('href="/packages/acme-web/lint-rules"');
    // Escaped, never markup.
    expect(html).toContain('Lint rules &lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('12.50 USD');
  });

  it("a listing's README is rendered from Markdown and sanitized: no script, no handlers, no javascript: links", async () => {
    const response = await get('/packages/acme-web/lint-rules');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1>Hello</h1>');
    expect(html).toContain('href="https://example.com"');
    expect(html).not.toMatch(/<script/);
    expect(html).not.toMatch(/href="javascript/);
    expect(html).not.toMatch(/<img[^>]*onerror/);
    expect((await get('/packages/acme-web/missing')).status).toBe(404);
    expect((await get('/packages/ACME/..%2f')).status).toBe(404);
  });

  it('pages carry no control character of what vendors wrote: escape sequences and all are taken out', async () => {
    const control = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
    const page = await (await get('/packages/acme-web/escapes')).text();
    expect(control.test(page)).toBe(false);
    expect(page).toContain('Escape title');
    expect(page).toContain('Desc link done');
    expect(page).toContain('<h1>Readme body</h1>');
    expect(page).toContain('more text');
    const home = await (await get('/?q=escape')).text();
    expect(control.test(home)).toBe(false);
    expect(home).toContain('Escape title');
  });

  it('pages that need a person send anonymous visitors to sign in and back; sign-in offers only the configured providers', async () => {
    const device = await get('/device');
    expect(device.status).toBe(303);
    expect(device.headers.get('location')).toBe('/signin?returnTo=%2Fdevice');
    const signin = await (await get('/signin?returnTo=%2Fdevice')).text();
    expect(signin).toContain('href="/auth/local/start?returnTo=%2Fdevice"');
    expect(signin).not.toContain('/auth/github/start');
    expect((await get('/auth/github/start')).status).toBe(404);
    // Never an open redirect.
    const start = await get('/auth/local/start?returnTo=//evil.example.com');
    expect(start.status).toBe(303);
    expect(start.headers.get('location')).toMatch(/\/local-idp\/auth\?/);
    const location = new URL(start.headers.get('location')!);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    const cookie = start.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/svc_sign_in=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  // Browsers drop tabs and newlines and read `\\` as `/`: each of these would leave the site.
  const hostileReturnTos = [
    '//evil.example.com',
    '/%09/evil.example.com',
    '/%0a/evil.example.com',
    '/%0d%0a/evil.example.com',
    '/%5Cevil.example.com',
    '/%5C%5Cevil.example.com',
    '/a%5C..%5C%5Cevil.example.com',
    '%2F%09%2Fevil.example.com',
    'https://evil.example.com/',
    'https:evil.example.com',
  ];
  const stayHome = (location: string | null) => {
    expect(location).toBeTruthy();
    expect(new URL(location!, app.url).origin).toBe(new URL(app.url).origin);
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(location).not.toMatch(/[\u0000-\u001f\u007f\\]/);
  };

  it('a signed-in visitor sent to sign in is redirected only within this site', async () => {
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand('returning@example.com'));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'web session (local)', [...SCOPES], 'web'));
    const id = await app.server.app.get(WebSessions).open(userId, issued.tokenId, issued.token, 'local');
    const cookie = `svc_session=${id}`;
    const fine = await get('/signin?returnTo=%2Fwallet', { headers: { cookie } });
    expect(fine.status).toBe(303);
    expect(fine.headers.get('location')).toBe('/wallet');
    for (const returnTo of hostileReturnTos) {
      const response = await get(`/signin?returnTo=${returnTo}`, { headers: { cookie } });
      expect({ returnTo, status: response.status }).toEqual({ returnTo, status: 303 });
      expect({ returnTo, location: response.headers.get('location') }).toEqual({ returnTo, location: '/' });
      stayHome(response.headers.get('location'));
    }
  });

  it('the place to return to after signing in is stored only when it is on this site', async () => {
    const pool = app.server.app.get(DataSource);
    const stored = async (returnTo: string) => {
      const start = await get(`/auth/local/start?returnTo=${returnTo}`);
      expect(start.status).toBe(303);
      const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
      const [row] = await pool.query(`SELECT return_to FROM web_sign_ins WHERE state_hash = $1`, [
        createHash('sha256').update(state).digest('hex'),
      ]);
      return row.return_to as string;
    };
    expect(await stored('%2Fdevice')).toBe('/device');
    for (const returnTo of hostileReturnTos) {
      expect({ returnTo, stored: await stored(returnTo) }).toEqual({ returnTo, stored: '/' });
    }
  });

  it('a callback whose state this browser did not start is refused and audited', async () => {
    const response = await get('/auth/local/callback?code=abc&state=forged');
    expect(response.status).toBe(400);
    expect(response.headers.get('set-cookie') ?? '').not.toMatch(/svc_session=[^;]/);
    const pool = app.server.app.get(DataSource);
    const rows = await pool.query(`SELECT kind, detail FROM auth_audit WHERE kind = 'web_sign_in_failed'`);
    expect(rows).toEqual([expect.objectContaining({ detail: expect.objectContaining({ provider: 'local' }) })]);
  });

  it('forms without the CSRF token are refused', async () => {
    const response = await get('/signout', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/did not come from this site/);
    const forged = await get('/device', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'svc_csrf=abc' },
      body: '_csrf=forged&code=BCDFGHJK&decision=approve',
    });
    expect(forged.status).toBe(403);
  });

  it('the API keeps answering JSON and its OpenAPI document has no web pages', async () => {
    const doc = (await (await get('/docs/json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/v1/') && p !== '/health')).toEqual([]);
    const unknown = await get('/v1/nothing-here');
    expect(unknown.headers.get('content-type')).toMatch(/json/);
  });
});
