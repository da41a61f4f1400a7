import { DomainError } from '../../../platform/errors/domain-error';
import { GithubOAuth, GithubOrgRole } from '../domain/ports';

const TIMEOUT_MS = 5_000;
const USER_AGENT = 'svc-marketplace';

type Json = Record<string, unknown>;

export interface GithubOAuthSettings {
  clientId: string;
  clientSecret: string;
  /** github.com, or a loopback stand-in in tests. */
  oauthUrl: string;
  apiUrl: string;
  /** The callback registered with the OAuth app; GitHub checks the two match. */
  redirectUri: string;
}

/** GitHub over HTTPS. Access tokens and the client secret never reach an error message. */
export class HttpGithubOAuth extends GithubOAuth {
  constructor(private readonly settings: GithubOAuthSettings) {
    super();
  }

  authorizationUrl(state: string): string {
    const { clientId, redirectUri, oauthUrl } = this.settings;
    const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, scope: 'read:org', state });
    return `${oauthUrl}/login/oauth/authorize?${query}`;
  }

  async exchangeCode(code: string): Promise<string> {
    const { clientId, clientSecret, redirectUri, oauthUrl } = this.settings;
    const response = await this.send(`${oauthUrl}/login/oauth/access_token`, [clientSecret], {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': USER_AGENT },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri }),
    });
    if (!response.ok) throw new DomainError('unavailable', `GitHub answered ${response.status} to the code exchange`);
    const body = await readJson(response, 'the code exchange');
    // GitHub reports OAuth errors with a 200 and an `error` field.
    if (typeof body.error === 'string') {
      const description = redact(String(body.error_description ?? body.error), [clientSecret, code]);
      if (body.error === 'incorrect_client_credentials') {
        // Our configuration is wrong, not the vendor's code: retrying will not help them.
        throw new DomainError('unavailable', `GitHub rejected this service's client credentials: ${description}`);
      }
      throw new DomainError('invalid', `GitHub refused the authorization code: ${description}`, { reason: body.error });
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new DomainError('unavailable', 'GitHub answered the code exchange without an access token');
    }
    return body.access_token;
  }

  async login(accessToken: string): Promise<string> {
    const response = await this.send(`${this.settings.apiUrl}/user`, [accessToken], apiInit(accessToken));
    if (response.status === 401) throw new DomainError('invalid', 'GitHub rejected the access token');
    if (!response.ok) throw new DomainError('unavailable', `GitHub answered ${response.status} when asked for the user`);
    const body = await readJson(response, 'the user lookup');
    if (typeof body.login !== 'string' || body.login === '') {
      throw new DomainError('unavailable', 'GitHub answered the user lookup without a login');
    }
    return body.login;
  }

  async orgRole(accessToken: string, org: string): Promise<GithubOrgRole | null> {
    if (!org.trim()) throw new DomainError('invalid', 'The GitHub organization name is empty');
    const url = `${this.settings.apiUrl}/user/memberships/orgs/${encodeURIComponent(org)}`;
    const response = await this.send(url, [accessToken], apiInit(accessToken));
    // A 403 with no quota left is throttling, not an answer about membership.
    if ((response.status === 403 || response.status === 429) && response.headers.get('x-ratelimit-remaining') === '0') {
      throw new DomainError('unavailable', 'GitHub rate limit reached while checking the organization membership');
    }
    // 401: the token was revoked; 403: the org restricts OAuth apps; 404: not a member. None proves a role.
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      throw new DomainError('unavailable', `GitHub answered ${response.status} when asked for the organization membership`);
    }
    const body = await readJson(response, 'the organization membership');
    if (body.state !== 'active') return null;
    return body.role === 'admin' || body.role === 'member' ? body.role : null;
  }

  /** fetch with the timeout; transport failures become `unavailable`, scrubbed of the given secrets. */
  private async send(url: string, secrets: string[], init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new DomainError(
        'unavailable',
        `GitHub is unreachable at ${new URL(url).origin}: ${redact(describe(error), secrets)}`,
      );
    }
  }
}

function apiInit(accessToken: string): RequestInit {
  return {
    headers: {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/vnd.github+json',
      'X-GitHub-Api-Version': '2022-11-28',
      'User-Agent': USER_AGENT,
    },
  };
}

async function readJson(response: Response, what: string): Promise<Json> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new DomainError('unavailable', `GitHub sent an unreadable answer to ${what}: ${describe(error)}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('unavailable', `GitHub sent an unexpected answer to ${what}`);
  }
  return body as Json;
}

function describe(error: unknown): string {
  // Duck-typed: fetch's errors may come from another realm (e.g. under jest), where instanceof Error fails.
  const failure = (error ?? {}) as { name?: unknown; message?: unknown; cause?: { code?: unknown } };
  if (failure.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  // undici hides the socket error (ECONNREFUSED, ENOTFOUND...) in `cause`.
  if (typeof failure.cause?.code === 'string') return failure.cause.code;
  return typeof failure.message === 'string' ? failure.message : String(error);
}

function redact(text: string, secrets: string[]): string {
  return secrets.filter((secret) => secret.length > 0).reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}
