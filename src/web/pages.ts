import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { formatUserCode, normalizeUserCode } from '../modules/auth/domain/device-code.decider';
import { loadDeviceCode } from '../modules/auth/domain/device-code-stream';
import { EventStore } from '../event-store/event-store';
import { DeviceCodesReader } from '../modules/auth/read-models/device-codes.reader';
import { renderReadme } from './markdown';
import type { PageHandler, WebDeps } from './web-app';

type Page = (handler: PageHandler) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type Form = Record<string, string | undefined>;

const SCOPE_TEXT: Record<string, string> = {
  read: 'read your account, entitlements, orders and reviews',
  purchase: 'buy packages, top up your wallet and call paid services',
  download: 'download packages you own',
  sell: 'manage your vendor account, listings and releases',
};

export interface PageDeps extends WebDeps {
  store: EventStore;
  deviceCodes: DeviceCodesReader;
}

const TYPES = ['skill', 'rule', 'bundle', 'template', 'mcp'];
const TARGETS = ['cursor', 'claude-code', 'codex', 'gemini-cli', 'windsurf', 'generic'];
const SORTS = ['popular', 'recent', 'rated', 'price_asc', 'price_desc', 'trusted'];
const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function formatCents(cents: unknown, currency = 'usd'): string {
  const amount = typeof cents === 'number' ? cents : 0;
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  return `${sign}${(abs / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

/** The pages. Each reads and acts through the API as the signed-in user. */
export function registerPages(
  web: FastifyInstance,
  page: Page,
  csrfChecked: { preHandler: preHandlerHookHandler },
  deps: WebDeps,
): void {
  const { store, deviceCodes } = deps as PageDeps;

  /** What a user code stands for, as the device page shows it. */
  const describeCode = async (input: string) => {
    const userCode = normalizeUserCode(input);
    if (!userCode) return { problem: 'That is not a code: it has 8 letters and digits, like BCDF-GHJK.' };
    const streamId = await deviceCodes.streamForUserCode(userCode);
    if (!streamId) return { problem: 'No sign-in is waiting for this code. Check it, or start again in your terminal.' };
    const { state } = await loadDeviceCode(store, streamId);
    if (state.status === 'none') return { problem: 'No sign-in is waiting for this code.' };
    if (state.status === 'denied') return { problem: 'This sign-in was denied. Start signing in again in your terminal.' };
    if (state.status !== 'pending') return { problem: 'This code has already been used.' };
    if (Date.now() >= state.expiresAt) return { problem: 'This code has expired. Start signing in again in your terminal.' };
    return {
      code: formatUserCode(userCode),
      // The client's own claim, autoescaped by the template; a client that gave none is called so.
      clientName: state.clientName,
      scopes: state.scopes.map((scope) => ({ scope, text: SCOPE_TEXT[scope] ?? scope })),
    };
  };

  web.get(
    '/',
    page(async (request, _reply, { render, api }) => {
      const query = (request as { query: Form }).query;
      const filters = {
        q: String(query.q ?? '').slice(0, 200),
        type: TYPES.includes(String(query.type)) ? String(query.type) : '',
        target: TARGETS.includes(String(query.target)) ? String(query.target) : '',
        sort: SORTS.includes(String(query.sort)) ? String(query.sort) : 'popular',
        free: query.free === 'true' ? 'true' : '',
        verified: query.verified === 'true' ? 'true' : '',
        cursor: typeof query.cursor === 'string' ? query.cursor.slice(0, 500) : '',
      };
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
      params.set('per_page', '20');
      const answer = await api<{ results: Record<string, unknown>[]; total: number | null; nextCursor: string | null }>(
        'GET',
        `/v1/search?${params}`,
      );
      const results = answer.status === 200 ? answer.body.results : [];
      const next = new URLSearchParams();
      for (const [key, value] of Object.entries(filters)) if (value && key !== 'cursor') next.set(key, value);
      if (answer.status === 200 && answer.body.nextCursor) next.set('cursor', answer.body.nextCursor);
      return render('home.njk', {
        title: 'Packages',
        filters,
        types: TYPES,
        targets: TARGETS,
        sorts: SORTS,
        results: results.map((r) => ({ ...r, price: r.priceCents ? formatCents(r.priceCents, String(r.currency)) : 'Free' })),
        total: answer.status === 200 ? answer.body.total : null,
        error: answer.status === 200 ? null : answer.body.message,
        nextUrl: answer.status === 200 && answer.body.nextCursor ? `/?${next}` : null,
      });
    }),
  );

  web.get(
    '/packages/:vendor/:slug',
    page(async (request, _reply, { render, api }) => {
      const { vendor, slug } = (request as { params: { vendor: string; slug: string } }).params;
      if (!SLUG.test(vendor) || !SLUG.test(slug))
        return render('error.njk', { title: 'Not found', message: 'No such package.' }, 404);
      const base = `/v1/listings/${vendor}/${slug}`;
      const [listing, releases, reviews] = await Promise.all([
        api('GET', base),
        api<{ releases: Record<string, unknown>[] }>('GET', `${base}/releases`),
        api<{ reviews: Record<string, unknown>[]; rating: number; ratingCount: number }>('GET', `${base}/reviews`),
      ]);
      if (listing.status !== 200) return render('error.njk', { title: 'Not found', message: 'No such package.' }, 404);
      const item = listing.body as Record<string, unknown>;
      return render('package.njk', {
        title: String(item.title),
        listing: item,
        price: item.priceCents ? formatCents(item.priceCents, String(item.currency)) : 'Free',
        readme: renderReadme(item.readmeMd as string | null),
        releases: releases.status === 200 ? releases.body.releases : [],
        reviews: reviews.status === 200 ? reviews.body.reviews : [],
        rating: reviews.status === 200 ? reviews.body.rating : null,
        ratingCount: reviews.status === 200 ? reviews.body.ratingCount : 0,
      });
    }),
  );

  web.get(
    '/device',
    page(async (request, _reply, { render, requireSignIn }) => {
      if (requireSignIn()) return;
      const code = (request as { query: Form }).query.code;
      if (!code) return render('device.njk', { title: 'Connect a device' });
      const described = await describeCode(String(code).slice(0, 40));
      if (described.problem)
        return render('device.njk', { title: 'Connect a device', error: described.problem, entered: code }, 400);
      return render('device-confirm.njk', { title: 'Approve this sign-in?', ...described });
    }),
  );

  web.post(
    '/device',
    csrfChecked,
    page(async (request, _reply, { render, requireSignIn, api }) => {
      if (requireSignIn()) return;
      const form = ((request as { body?: Form }).body ?? {}) as Form;
      const code = String(form.code ?? '').slice(0, 40);
      const described = await describeCode(code);
      if (described.problem)
        return render('device.njk', { title: 'Connect a device', error: described.problem, entered: code }, 400);
      if (form.decision !== 'approve' && form.decision !== 'deny')
        return render('device-confirm.njk', { title: 'Approve this sign-in?', ...described });
      // A denial is recorded too, so the CLI stops waiting at once instead of polling until the code expires.
      const approved = form.decision === 'approve';
      const answer = await api('POST', `/v1/auth/device/${approved ? 'approve' : 'deny'}`, { userCode: code });
      if (answer.status !== 200) {
        return render(
          'device.njk',
          { title: 'Connect a device', error: answer.body.message ?? 'The code was refused.', entered: code },
          400,
        );
      }
      return render('device-done.njk', { title: approved ? 'Device connected' : 'Sign-in denied', approved });
    }),
  );
}
