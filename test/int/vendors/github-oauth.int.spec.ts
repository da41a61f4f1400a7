import { loadConfig } from '../../../src/config/app-config';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { HttpGithubOAuth } from '../../../src/modules/vendors/adapters/http-github-oauth';
import { UnconfiguredGithubOAuth } from '../../../src/modules/vendors/adapters/unconfigured-github-oauth';
import { GithubOAuth } from '../../../src/modules/vendors/domain/ports';
import { githubOAuthFor } from '../../../src/modules/vendors/vendors.module';
import { FakeGithub, startFakeGithub } from '../../support/fake-github';

const CLIENT_ID = 'Iv1.test-client';
const CLIENT_SECRET = 'shh-test-secret-0123456789';
const BASE_URL = 'http://localhost:3000';
const REDIRECT = `${BASE_URL}/v1/vendor/verify/github/callback`;

describe('GithubOAuth adapters (real HTTP against a loopback GitHub)', () => {
  let github: FakeGithub;

  const clientWith = (env: Record<string, string>, url = github.url) =>
    githubOAuthFor(loadConfig({ NODE_ENV: 'test', BASE_URL, GITHUB_OAUTH_URL: url, GITHUB_API_URL: url, ...env }));
  let client: GithubOAuth;

  beforeAll(async () => {
    github = await startFakeGithub({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    client = clientWith({ GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_CLIENT_SECRET: CLIENT_SECRET });
  });
  afterAll(async () => github?.close());

  /** The error a promise rejects with, checked to leak none of the secrets. */
  const failure = async (promise: Promise<unknown>, ...secrets: string[]): Promise<DomainError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    const text = `${(error as DomainError).message} ${JSON.stringify((error as DomainError).details ?? {})}`;
    for (const secret of [CLIENT_SECRET, ...secrets]) expect(text).not.toContain(secret);
    return error as DomainError;
  };

  it('builds the authorize URL with the client id, redirect, read:org scope and state', () => {
    expect(client).toBeInstanceOf(HttpGithubOAuth);
    const url = new URL(client.authorizationUrl('state-123'));

    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      scope: 'read:org',
      state: 'state-123',
    });
    expect(url.toString()).not.toContain(CLIENT_SECRET);
  });

  it('exchanges a code once, then reads the login and org roles with the token', async () => {
    const code = github.authorize('octo-admin', { 'acme-tools': 'admin', 'other-org': 'member' });

    const token = await client.exchangeCode(code);

    expect(token).toMatch(/^gho_/);
    expect(await client.login(token)).toBe('octo-admin');
    expect(await client.orgRole(token, 'acme-tools')).toBe('admin');
    expect(await client.orgRole(token, 'ACME-Tools')).toBe('admin');
    expect(await client.orgRole(token, 'other-org')).toBe('member');
    expect(await client.orgRole(token, 'unrelated-org')).toBeNull();
    expect(await client.orgRole(token, 'weird/org name')).toBeNull(); // encoded into one path segment

    const reused = await failure(client.exchangeCode(code), code, token);
    expect(reused.code).toBe('invalid');
    expect(reused.message).toBe('GitHub refused the authorization code: The code passed is incorrect or expired.');

    expect(github.requests).toContainEqual({ method: 'GET', path: '/user/memberships/orgs/weird%2Forg%20name' });
  });

  it('sees membership changes and revoked tokens as they happen', async () => {
    const token = await client.exchangeCode(github.authorize('octo-member', { 'acme-tools': 'member' }));
    expect(await client.orgRole(token, 'acme-tools')).toBe('member');

    github.setMemberships('octo-member', { 'acme-tools': 'admin' });
    expect(await client.orgRole(token, 'acme-tools')).toBe('admin');

    github.revokeTokensOf('octo-member');
    expect(await client.orgRole(token, 'acme-tools')).toBeNull();
    const error = await failure(client.login(token), token);
    expect(error.code).toBe('invalid');
  });

  it('refuses an unknown code', async () => {
    const error = await failure(client.exchangeCode('never-issued'));
    expect(error.code).toBe('invalid');
  });

  it('reports wrong client credentials as a service problem, without the secret', async () => {
    const wrongSecret = 'wrong-secret-abcdef';
    const wrong = clientWith({ GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_CLIENT_SECRET: wrongSecret });
    const code = github.authorize('octo-admin', { 'acme-tools': 'admin' });

    const error = await failure(wrong.exchangeCode(code), wrongSecret, code);

    expect(error.code).toBe('unavailable');
    expect(error.message).toContain('client credentials');
    // The code was not spent by the failed attempt.
    expect(await client.exchangeCode(code)).toMatch(/^gho_/);
  });

  it('reports an unreachable GitHub as unavailable', async () => {
    const closed = await startFakeGithub({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    const url = closed.url;
    await closed.close();
    const offline = clientWith({ GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_CLIENT_SECRET: CLIENT_SECRET }, url);

    const exchange = await failure(offline.exchangeCode('some-code'));
    expect(exchange.code).toBe('unavailable');
    expect(exchange.message).toMatch(/unreachable.*ECONNREFUSED/);
    const role = await failure(offline.orgRole('gho_secret-token', 'acme-tools'), 'gho_secret-token');
    expect(role.code).toBe('unavailable');
  });

  it('is off without a client id: every step answers unavailable, naming the variables', async () => {
    const off = clientWith({});
    expect(off).toBeInstanceOf(UnconfiguredGithubOAuth);
    const message = 'GitHub verification is not configured: set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET';
    expect(() => off.authorizationUrl('s')).toThrow(message);
    for (const call of [off.exchangeCode('c'), off.login('t'), off.orgRole('t', 'acme-tools')]) {
      const error = await failure(call);
      expect(error).toMatchObject({ code: 'unavailable', message });
    }
  });
});
