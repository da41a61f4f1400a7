import { ConfigError, loadConfig } from '../../../src/config/app-config';
import { renderReadme } from '../../../src/web/markdown';
import { safeReturnTo } from '../../../src/web/web-app';

describe('web configuration', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://db/svc',
    STRIPE_SECRET_KEY: 'sk',
    STRIPE_WEBHOOK_SECRET: 'wh',
  };

  it('offers the local provider only when nothing else is configured, never in production', () => {
    expect(loadConfig({}).web).toMatchObject({ localIdp: true, oidc: undefined, githubSignIn: false, sessionIdleMinutes: 120 });
    expect(loadConfig({ GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 's' }).web).toMatchObject({
      localIdp: false,
      githubSignIn: true,
    });
    expect(loadConfig(production).web.localIdp).toBe(false);
    expect(() => loadConfig({ ...production, WEB_LOCAL_IDP: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, WEB_LOCAL_IDP: 'true' })).toThrow(/WEB_LOCAL_IDP/);
  });

  it('needs the whole OpenID Connect triple', () => {
    const oidc = { OIDC_ISSUER_URL: 'https://id.example.com', OIDC_CLIENT_ID: 'svc', OIDC_CLIENT_SECRET: 'secret' };
    expect(loadConfig(oidc).web.oidc).toEqual({ issuerUrl: 'https://id.example.com', clientId: 'svc', clientSecret: 'secret' });
    expect(() => loadConfig({ ...oidc, OIDC_CLIENT_SECRET: '' })).toThrow(/OIDC_CLIENT_SECRET/);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'svc' })).toThrow(/OIDC_ISSUER_URL/);
    expect(() => loadConfig({ WEB_SESSION_IDLE_MINUTES: '0' })).toThrow(/WEB_SESSION_IDLE_MINUTES/);
  });
});

describe('web helpers', () => {
  it('returns only to paths on this site', () => {
    const web = 'https://shop.example.com';
    expect(safeReturnTo('/device', web)).toBe('/device');
    expect(safeReturnTo('/packages/a/b?tab=1#top', web)).toBe('/packages/a/b?tab=1#top');
    for (const bad of [
      '//evil.example.com',
      '/\\evil.example.com',
      '/a\\b',
      'https://evil.example.com',
      'device',
      '/a\r\nSet-Cookie: x',
      '/\t/evil.example.com',
      '/\n/evil.example.com',
      '/\u0000x',
      '/\u007f/evil.example.com',
    ]) {
      expect(safeReturnTo(bad, web)).toBe('/');
    }
    expect(safeReturnTo(undefined, web)).toBe('/');
  });

  it('renders README Markdown without script, handlers or javascript: links', () => {
    const html = renderReadme(
      '# Title\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [ok](https://example.com)\n\n![i](https://example.com/i.png)',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">ok</a>');
    expect(html).toContain('<img src="https://example.com/i.png" alt="i" />');
    expect(html).not.toMatch(/<script|href="javascript|onerror/);
    expect(renderReadme(null)).toBe('');
  });
});
