import { createPrivateKey, generateKeyPairSync, JsonWebKey, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Provider } from 'oidc-provider';
import nunjucks from 'nunjucks';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MemoryAdapter = require('oidc-provider/lib/adapters/memory_adapter');
/** In memory is right here (one process, development only); a subclass, so the provider does not warn about it. */
class InMemoryAdapter extends MemoryAdapter {}

export const LOCAL_IDP_PATH = '/local-idp';
export const LOCAL_IDP_CLIENT_ID = 'svc-web';

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}$/;

/**
 * A real OpenID provider (oidc-provider) for machines with no identity provider configured: its
 * sign-in form takes an e-mail and vouches for it, so it is never on in production (see web-config).
 * It runs in this process under /local-idp; the web app signs in through it like through any issuer.
 */
let signingKey: JsonWebKey | undefined;

/**
 * The local provider's RSA signing key, made once per process. It is generated
 * as PEM and read back into a fresh key object before the JWK export: exporting
 * the generator's own key object can deadlock Node 20 when a garbage collection
 * runs mid-export and finalizes the generation job, which takes the same lock
 * (seen as a test process hung in KeyGenJob's destructor).
 */
function localSigningKey(): JsonWebKey {
  if (!signingKey) {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    signingKey = createPrivateKey(privateKey).export({ format: 'jwk' });
  }
  return signingKey;
}

export class LocalIdp {
  readonly issuer: string;
  readonly clientSecret = randomBytes(24).toString('base64url');
  private readonly provider: Provider;
  private readonly callbackOrigin: string;

  constructor(
    baseUrl: string,
    redirectUri: string,
    private readonly views: nunjucks.Environment,
  ) {
    this.issuer = `${baseUrl}${LOCAL_IDP_PATH}`;
    this.callbackOrigin = new URL(redirectUri).origin;
    const jwk = { ...localSigningKey(), use: 'sig', alg: 'RS256', kid: 'local' };
    this.provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: LOCAL_IDP_CLIENT_ID,
          client_secret: this.clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      adapter: InMemoryAdapter,
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, IdToken: 600, AccessToken: 600 },
      jwks: { keys: [jwk as never] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      pkce: { methods: ['S256'], required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      features: { devInteractions: { enabled: false } },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({ sub, email: sub, email_verified: true }),
      }),
      interactions: { url: (_ctx, interaction) => `${LOCAL_IDP_PATH}/interaction/${interaction.uid}` },
      // Its one client is this service: consent is implied, only the e-mail is asked for.
      loadExistingGrant: async (ctx) => {
        const { Grant } = ctx.oidc.provider;
        const grant = new Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope('openid email');
        await grant.save();
        return grant;
      },
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.body = this.views.render('local-idp-error.njk', { error: out.error_description ?? out.error });
      },
    });
  }

  /** Serves one request under /local-idp: its own sign-in form, else the provider's endpoints. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const full = req.url ?? '/';
    const interaction = /^\/local-idp\/interaction\/([\w-]{1,100})(\?.*)?$/.exec(full);
    // The sign-in form's redirects end at the web app's callback, which form-action must allow.
    res.setHeader(
      'content-security-policy',
      `default-src 'none'; style-src 'self'; form-action 'self' ${this.callbackOrigin}; frame-ancestors 'none'`,
    );
    res.setHeader('x-content-type-options', 'nosniff');
    if (interaction) return this.interaction(req, res);
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = full;
    req.url = full.slice(LOCAL_IDP_PATH.length) || '/';
    await (this.provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>)(req, res);
  }

  private async interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const page = (status: number, context: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(this.views.render('local-idp-login.njk', context));
    };
    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await this.provider.interactionDetails(req, res);
    } catch {
      return page(400, { error: 'This sign-in has expired or is unknown; start again from the service.' });
    }
    const action = req.url!.split('?')[0];
    if (req.method === 'GET') return page(200, { action, email: '' });
    if (req.method !== 'POST') return page(405, { action, error: 'Use the form.' });
    const form = new URLSearchParams(await readBody(req, 4096));
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (!EMAIL.test(email)) return page(400, { action, email, error: 'Enter an e-mail address, like ada@example.com.' });
    if (details.prompt.name !== 'login' && details.prompt.name !== 'consent')
      return page(400, { action, error: 'Unexpected step.' });
    await this.provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) req.destroy(new Error('too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
