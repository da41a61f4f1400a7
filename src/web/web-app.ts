import { randomUUID } from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import { Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { acceptBodiesOnEveryRoute, FORM_BODY } from '../platform/http/body-types';
import { IssuedToken, IssueTokenCommand } from '../modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../modules/auth/domain/api-token';
import { paymentGatewayNameFor } from '../modules/billing/adapters/payment-gateway.provider';
import { stripeCheckoutOrigin } from '../modules/billing/adapters/stripe-payment-gateway';
import { SANDBOX_TEST_CARDS, spacedCardNumber } from '../modules/billing/adapters/sandbox-test-cards';
import { EnsureUserCommand } from '../modules/users/commands/ensure-user/ensure-user.command';
import { withEventContext } from '../event-store/event-context';
import { trackWrites } from '../event-store/write-tracker';
import { ProjectionWaiter } from '../projections/read-your-writes';
import { GithubProvider, IdentityProvider, OidcProvider } from './sign-in/identity-providers';
import { LOCAL_IDP_CLIENT_ID, LOCAL_IDP_PATH, LocalIdp } from './sign-in/local-idp';
import { SESSION_MAX_DAYS, WebSession, WebSessions } from './sessions/web-sessions';
import { PageViews } from './page-views';
import { callApi } from './web-api';
import { registerAccountPages } from './account-pages';
import { registerPages } from './pages';

export const SESSION_COOKIE = 'svc_session';
const CSRF_SESSION_KEY = '_csrf';
/** What @fastify/csrf-protection reads the secret from, in its `@fastify/session` mode. */
type CsrfSessionStore = Record<string, string>;
const SIGN_IN_COOKIE = 'svc_sign_in';

export interface WebDeps {
  config: AppConfig;
  waiter: ProjectionWaiter;
  sessions: WebSessions;
  commands: CommandBus;
  /** For what the API does not answer by id, e.g. the terms of buying a listing, read as the buyer may see them. */
  queries: QueryBus;
}

/** What each page handler gets: the session (if any), rendering, and the API as the signed-in user. */
export interface PageContext {
  session: WebSession | null;
  render(template: string, context?: Record<string, unknown>, status?: number): FastifyReply;
  api<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    /** For a request that moves money: the key of the form that asked (see `moneyFormKey`). */
    idempotencyKey?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T & { message?: string } }>;
  /** Sends an anonymous visitor to sign in and come back; answers false when already signed in. */
  requireSignIn(): boolean;
}

export type PageHandler = (request: FastifyRequest, reply: FastifyReply, page: PageContext) => Promise<unknown>;

/**
 * The web app: server-rendered pages (nunjucks, autoescaped) on the API's Fastify instance, outside the
 * OpenAPI document. Pages read and act through the REST API in-process with the session's own token.
 */
export async function registerWebApp(root: FastifyInstance, deps: WebDeps): Promise<void> {
  const logger = new Logger('Web');
  const { config, sessions, commands } = deps;
  const secure = config.webUrl.startsWith('https:');
  const sandboxPayments = paymentGatewayNameFor(config.payments) === 'sandbox';
  const views = new PageViews(path.join(__dirname, 'views'));
  // Each rendered money form carries its own Idempotency-Key: submitting it twice (a double click, a
  // resubmission after a lost answer) is one request to the API, so it never pays twice.
  views.addGlobal('newIdempotencyKey', () => randomUUID());
  // The processor's test cards, for the sandbox's notes beside card fields; none where real cards are charged.
  views.addGlobal(
    'sandboxTestCards',
    sandboxPayments ? SANDBOX_TEST_CARDS.map((card) => ({ number: spacedCardNumber(card.number), effect: card.effect })) : [],
  );

  const providers: IdentityProvider[] = [];
  let localIdp: LocalIdp | undefined;
  const redirectUri = (id: string) => `${config.webUrl}/auth/${id}/callback`;
  if (config.web.oidc) {
    providers.push(new OidcProvider('oidc', 'OpenID Connect', { ...config.web.oidc, redirectUri: redirectUri('oidc') }));
  }
  if (config.web.githubSignIn && config.github.clientId && config.github.clientSecret) {
    providers.push(
      new GithubProvider({
        clientId: config.github.clientId,
        clientSecret: config.github.clientSecret,
        oauthUrl: config.github.oauthUrl,
        apiUrl: config.github.apiUrl,
        redirectUri: redirectUri('github'),
      }),
    );
  }
  if (config.web.localIdp) {
    localIdp = new LocalIdp(config.baseUrl, redirectUri('local'), views);
    providers.push(
      new OidcProvider('local', 'e-mail (local sign-in, development only)', {
        issuerUrl: localIdp.issuer,
        clientId: LOCAL_IDP_CLIENT_ID,
        clientSecret: localIdp.clientSecret,
        redirectUri: redirectUri('local'),
      }),
    );
    const idp = localIdp;
    // Before body parsing: the provider reads its own requests.
    root.addHook('onRequest', async (request, reply) => {
      if (request.url !== LOCAL_IDP_PATH && !request.url.startsWith(`${LOCAL_IDP_PATH}/`)) return;
      reply.hijack();
      await idp.handle(request.raw, reply.raw).catch((error: unknown) => {
        logger.warn(`local identity provider: ${error instanceof Error ? error.message : String(error)}`);
        if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain' });
        reply.raw.end();
      });
    });
    logger.log(`local identity provider at ${localIdp.issuer}: anyone can sign in as any e-mail (development only)`);
  }

  await root.register(async (web) => {
    await web.register(cookie);
    await web.register(formbody, { bodyLimit: 64 * 1024 });
    // Every page route here is an HTML form post by design: it takes urlencoded forms, and nothing else.
    acceptBodiesOnEveryRoute(web, FORM_BODY);
    // The CSRF secret is the web session's own (see WebSession.csrfSecret), handed to the library through
    // its session interface (`request.session._csrf`): a token rendered for one session is refused with
    // any other session's cookie, a new sign-in rotates it, and without a session there is none at all.
    await web.register(csrf, { sessionPlugin: '@fastify/session', sessionKey: CSRF_SESSION_KEY });
    web.decorateRequest('session', null);
    await web.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'https:', 'data:'],
          // "Add a card" posts here and is redirected to the processor's hosted form: the redirect must be allowed too.
          formAction: ["'self'", ...(sandboxPayments ? [] : [stripeCheckoutOrigin(config.payments.stripeApiUrl)])],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          ...(secure ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: secure,
    });

    const sessionCookie = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure };

    const loadSession = async (request: FastifyRequest): Promise<WebSession | null> => {
      const id = request.cookies[SESSION_COOKIE];
      if (!id) return null;
      const { session, expired } = await sessions.resume(id);
      if (expired) await sessions.retire(expired, 'web_session_expired', {});
      return session;
    };

    // Loaded once a request: by the CSRF check first, when the route has one, then by the page.
    const loaded = new WeakMap<FastifyRequest, Promise<WebSession | null>>();
    const sessionOf = (request: FastifyRequest): Promise<WebSession | null> => {
      let session = loaded.get(request);
      if (!session) {
        session = loadSession(request).then((found) => {
          (request as FastifyRequest & { session: CsrfSessionStore }).session = found
            ? { [CSRF_SESSION_KEY]: found.csrfSecret }
            : {};
          return found;
        });
        loaded.set(request, session);
      }
      return session;
    };

    const page = (handler: PageHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await sessionOf(request);
      if (!session && request.cookies[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, sessionCookie);
      const context: PageContext = {
        session,
        render: (template, values = {}, status = 200) => {
          const html = views.render(template, {
            ...values,
            signedIn: Boolean(session),
            // Anonymous visitors have no session, so no secret: nothing they are shown could pass the check.
            csrfToken: session ? reply.generateCsrf() : '',
            path: request.url.split('?')[0],
          });
          return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
        },
        api: async (method, url, body, idempotencyKey, headers) => {
          const answer = await callApi(web, session?.apiToken ?? null, method, url, body, request.ip, idempotencyKey, headers);
          if (answer.status === 401 && session) {
            // The token is gone (revoked, account deleted): so is the session.
            await sessions.close(session.idHash);
            reply.clearCookie(SESSION_COOKIE, sessionCookie);
          }
          return answer as never;
        },
        requireSignIn: () => {
          if (session) return false;
          void reply.redirect(`/signin?returnTo=${encodeURIComponent(request.url)}`, 303);
          return true;
        },
      };
      return handler(request, reply, context);
    };
    // After body parsing: the token comes in the form, checked against the session's secret.
    const csrfChecked = {
      preHandler: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
        sessionOf(request).then(() => web.csrfProtection(request, reply, done), done);
      },
    };

    web.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) logger.error(`web page ${request.method} ${request.url.split('?')[0]} failed: ${error.stack ?? error}`);
      const message =
        error.code === 'FST_CSRF_MISSING_SECRET'
          ? 'You are not signed in (or your session has ended), or this form did not come from this site. Sign in, reload the page and try again.'
          : error.code?.startsWith('FST_CSRF')
            ? 'This form has expired, belongs to another session (or to one before you signed in again) or did not come from this site. Go back, reload the page and try again.'
            : status === 500
              ? 'Something went wrong on our side. Try again shortly.'
              : 'That request could not be handled.';
      const html = views.render('error.njk', { title: status === 403 ? 'Refused' : 'Error', message, signedIn: false });
      return reply.status(status).type('text/html; charset=utf-8').send(html);
    });

    web.get('/assets/web.css', async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(STYLESHEET),
    );

    // Sign-in
    web.get(
      '/signin',
      page(async (request, reply, { render, session }) => {
        const returnTo = safeReturnTo((request.query as Record<string, string>).returnTo, config.webUrl);
        if (session) return reply.redirect(returnTo, 303);
        return render('signin.njk', {
          title: 'Sign in',
          providers: providers.map((p) => ({ id: p.id, label: p.label })),
          returnTo,
        });
      }),
    );

    web.get('/auth/:provider/start', async (request, reply) => {
      const provider = providers.find((p) => p.id === (request.params as { provider: string }).provider);
      if (!provider)
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .send(views.render('error.njk', { title: 'Not found', message: 'No such sign-in provider.' }));
      const returnTo = safeReturnTo((request.query as Record<string, string>).returnTo, config.webUrl);
      const state = randomBytes(24).toString('base64url');
      const nonce = randomBytes(24).toString('base64url');
      const codeVerifier = randomBytes(32).toString('base64url');
      const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
      await sessions.beginSignIn(state, provider.id, nonce, codeVerifier, returnTo);
      let target: string;
      try {
        target = await provider.authorizationUrl({ state, nonce, codeVerifier, codeChallenge });
      } catch (error) {
        logger.warn(`sign-in with ${provider.id} is unavailable: ${error instanceof Error ? error.message : error}`);
        const html = views.render('error.njk', {
          title: 'Sign-in unavailable',
          message: 'This sign-in provider does not answer right now. Try again shortly.',
        });
        return reply.status(503).type('text/html; charset=utf-8').send(html);
      }
      // Binds the attempt to this browser: a callback carrying someone else's state is refused.
      reply.setCookie(SIGN_IN_COOKIE, state, { ...sessionCookie, path: '/auth', maxAge: 15 * 60 });
      return reply.redirect(target, 303);
    });

    web.get('/auth/:provider/callback', async (request, reply) => {
      const providerId = (request.params as { provider: string }).provider;
      const provider = providers.find((p) => p.id === providerId);
      const query = Object.fromEntries(
        Object.entries(request.query as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>;
      const fail = async (reason: string, status = 400) => {
        await sessions.audit('web_sign_in_failed', null, { provider: providerId.slice(0, 40), reason, ip: request.ip });
        reply.clearCookie(SIGN_IN_COOKIE, { ...sessionCookie, path: '/auth' });
        const html = views.render('error.njk', {
          title: 'Sign-in failed',
          message: 'Signing in did not work. Try again.',
          retry: true,
        });
        return reply.status(status).type('text/html; charset=utf-8').send(html);
      };
      if (!provider) return fail('unknown provider', 404);
      const state = query.state ?? '';
      if (!state || request.cookies[SIGN_IN_COOKIE] !== state) return fail('state does not match this browser');
      const attempt = await sessions.takeSignIn(state, provider.id);
      if (!attempt) return fail('unknown or expired state');
      let identity;
      try {
        identity = await provider.identify(query, { state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
      } catch (error) {
        return fail(error instanceof Error ? error.message.slice(0, 200) : 'provider refused');
      }
      if (!identity.emailVerified) return fail('e-mail not verified', 403);
      // The pages use the token at once: wait, bounded, until the projections know it (read your writes).
      const {
        result: signedIn,
        lastPosition,
        eventTypes,
      } = await trackWrites(() =>
        withEventContext({ correlationId: request.id }, async () => {
          const userId = await commands.execute<EnsureUserCommand, string>(new EnsureUserCommand(identity.email));
          const issued = await commands.execute<IssueTokenCommand, IssuedToken>(
            new IssueTokenCommand(userId, `web session (${provider.id})`, [...SCOPES], 'web', {
              expiresInDays: SESSION_MAX_DAYS,
            }),
          );
          return { userId, issued };
        }),
      );
      if (lastPosition) await deps.waiter.waitFor(lastPosition, eventTypes);
      const { userId, issued } = signedIn;
      // Signing in again replaces this browser's session: the old one must not stay live beside it.
      const previousId = request.cookies[SESSION_COOKIE];
      const previous = previousId ? await sessions.end(previousId) : null;
      if (previous) await sessions.retire(previous, 'web_sign_out', { replaced: true });
      const id = await sessions.open(userId, issued.tokenId, issued.token, provider.id);
      await sessions.audit('web_sign_in', userId, { provider: provider.id, ip: request.ip });
      reply.clearCookie(SIGN_IN_COOKIE, { ...sessionCookie, path: '/auth' });
      reply.setCookie(SESSION_COOKIE, id, sessionCookie);
      // Checked again: a row stored by an older version may predate the current rule.
      return reply.redirect(safeReturnTo(attempt.returnTo, config.webUrl), 303);
    });

    web.post(
      '/signout',
      csrfChecked,
      page(async (_request, reply, { session }) => {
        if (session) {
          await sessions.close(session.idHash);
          await sessions.retire(session, 'web_sign_out', { provider: session.provider });
        }
        reply.clearCookie(SESSION_COOKIE, sessionCookie);
        return reply.redirect('/', 303);
      }),
    );

    registerPages(web, page, csrfChecked, deps);
    registerAccountPages(web, page, csrfChecked, { sandboxPayments, queries: deps.queries });
  });
}

/**
 * Only a path on this site: never an open redirect. Browsers drop tabs and newlines from a URL and read
 * `\\` as `/`, so `/\t/evil.example` would become `//evil.example`: any control character or backslash
 * is refused outright, and what is left must resolve to our own origin.
 */
export function safeReturnTo(value: unknown, webUrl: string): string {
  if (typeof value !== 'string' || value.length > 500) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  try {
    const origin = new URL(webUrl).origin;
    const target = new URL(value, origin);
    if (target.origin !== origin) return '/';
    // The parser's own serialization: percent-encoded, safe in a Location header.
    return `${target.pathname}${target.search}${target.hash}`;
  } catch {
    return '/';
  }
}

const STYLESHEET = `
:root{--fg:#1b1f24;--muted:#57606a;--accent:#0b57d0;--bg:#fff;--line:#d0d7de;--ok:#116329;--bad:#a40e26}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;border-bottom:1px solid var(--line);padding-block:.75rem}
header nav ul{display:flex;flex-wrap:wrap;gap:.75rem;list-style:none;margin:0;padding:0}a{color:var(--accent)}
.brand{font-weight:700;text-decoration:none;color:var(--fg)}button,.button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:var(--accent)}input,select,textarea{font:inherit;padding:.4rem;border:1px solid #8c959f;border-radius:.3rem;max-width:100%}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}.notice{padding:.75rem;border-radius:.4rem;border:1px solid var(--line);background:#f6f8fa}.error{border-color:var(--bad);color:var(--bad)}.success{border-color:var(--ok);color:var(--ok)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid var(--line)}.code{font:700 1.5rem monospace;letter-spacing:.15em}
ul.cards{list-style:none;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr))}ul.cards li{border:1px solid var(--line);border-radius:.5rem;padding:1rem}
.muted{color:var(--muted)}form.inline{display:inline}label.inline{display:inline;font-weight:400}.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
code{overflow-wrap:anywhere}.readme pre{white-space:pre-wrap}.readme img{max-width:100%;height:auto}
@media (max-width:40rem){
td{overflow-wrap:anywhere}main table,main tbody,main tr,main td{display:block}main thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
main tr{border-bottom:1px solid var(--line);padding:.5rem 0}main td{border:0;padding:.1rem 0}main td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
}
`;
