import { BaseClient, Issuer } from 'openid-client';

/** Who a provider says signed in. Only a verified e-mail signs anyone in. */
export interface Identity {
  email: string;
  emailVerified: boolean;
  name: string | null;
}

export interface SignInAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
  codeChallenge: string;
}

export interface IdentityProvider {
  /** `oidc`, `github` or `local`: in URLs and in the audit. */
  readonly id: string;
  readonly label: string;
  authorizationUrl(attempt: SignInAttempt): Promise<string>;
  /** Redeems the callback's code; throws on anything the provider or the checks refuse. */
  identify(query: Record<string, string>, attempt: Omit<SignInAttempt, 'codeChallenge'>): Promise<Identity>;
}

/** Any OpenID Connect issuer through openid-client: discovery, PKCE (S256), state and nonce. */
export class OidcProvider implements IdentityProvider {
  private client: Promise<BaseClient> | undefined;

  constructor(
    readonly id: string,
    readonly label: string,
    private readonly settings: { issuerUrl: string; clientId: string; clientSecret: string; redirectUri: string },
  ) {}

  // Discovered on first use (the local provider answers only once this server listens); retried after a failure.
  private getClient(): Promise<BaseClient> {
    this.client ??= Issuer.discover(this.settings.issuerUrl).then(
      (issuer) =>
        new issuer.Client({
          client_id: this.settings.clientId,
          client_secret: this.settings.clientSecret,
          redirect_uris: [this.settings.redirectUri],
          response_types: ['code'],
        }),
    );
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  async authorizationUrl(attempt: SignInAttempt): Promise<string> {
    const client = await this.getClient();
    return client.authorizationUrl({
      scope: 'openid email profile',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: attempt.codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  async identify(query: Record<string, string>, attempt: Omit<SignInAttempt, 'codeChallenge'>): Promise<Identity> {
    const client = await this.getClient();
    const tokens = await client.callback(this.settings.redirectUri, query, {
      state: attempt.state,
      nonce: attempt.nonce,
      code_verifier: attempt.codeVerifier,
    });
    let claims: Record<string, unknown> = tokens.claims();
    if (typeof claims.email !== 'string' && tokens.access_token) claims = { ...claims, ...(await client.userinfo(tokens)) };
    if (typeof claims.email !== 'string') throw new Error('the provider shared no e-mail address');
    return {
      email: claims.email.toLowerCase(),
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name : null,
    };
  }
}

/**
 * GitHub's OAuth web flow (it is not OpenID Connect): `state` guards the callback, and the e-mail
 * is the account's primary verified address from `GET /user/emails`.
 */
export class GithubProvider implements IdentityProvider {
  readonly id = 'github';
  readonly label = 'GitHub';

  constructor(
    private readonly settings: { clientId: string; clientSecret: string; oauthUrl: string; apiUrl: string; redirectUri: string },
  ) {}

  async authorizationUrl(attempt: SignInAttempt): Promise<string> {
    const url = new URL(`${this.settings.oauthUrl}/login/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: this.settings.redirectUri,
      scope: 'read:user user:email',
      state: attempt.state,
      allow_signup: 'true',
    }).toString();
    return url.toString();
  }

  async identify(query: Record<string, string>, attempt: Omit<SignInAttempt, 'codeChallenge'>): Promise<Identity> {
    if (query.error) throw new Error(`GitHub answered ${query.error}`);
    if (query.state !== attempt.state) throw new Error('state mismatch');
    if (!query.code) throw new Error('no code');
    const exchange = await fetch(`${this.settings.oauthUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: this.settings.clientId,
        client_secret: this.settings.clientSecret,
        code: query.code,
        redirect_uri: this.settings.redirectUri,
      }),
      signal: AbortSignal.timeout(10_000),
    });
    const grant = (await exchange.json()) as { access_token?: string; error?: string };
    if (!grant.access_token) throw new Error(`GitHub refused the code (${grant.error ?? exchange.status})`);
    const api = (path: string) =>
      fetch(`${this.settings.apiUrl}${path}`, {
        headers: { authorization: `Bearer ${grant.access_token}`, accept: 'application/vnd.github+json' },
        signal: AbortSignal.timeout(10_000),
      }).then(async (response) => {
        if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
        return response.json() as Promise<unknown>;
      });
    const [user, emails] = (await Promise.all([api('/user'), api('/user/emails')])) as [
      { name?: string | null; login?: string },
      { email: string; primary: boolean; verified: boolean }[],
    ];
    const primary = Array.isArray(emails) ? emails.find((entry) => entry.primary) : undefined;
    if (!primary) throw new Error('GitHub shared no primary e-mail address');
    return {
      email: primary.email.toLowerCase(),
      emailVerified: primary.verified === true,
      name: user.name ?? user.login ?? null,
    };
  }
}
