import { randomUUID } from 'node:crypto';
import type { QueryBus } from '@nestjs/cqrs';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { SCOPES } from '../modules/auth/domain/api-token';
import { SANDBOX_CARD_HEADER } from '../modules/billing/adapters/sandbox-card-entry';
import {
  CardDecline,
  DEFAULT_SANDBOX_CARD,
  sandboxTestCard,
  SandboxTestCard,
} from '../modules/billing/adapters/sandbox-test-cards';
import { POLICY_PACKAGE_TYPES } from '../modules/policies/domain/spend-policy';
import { GetPurchaseTermsQuery, PurchaseTerms } from '../modules/catalog/queries/get-purchase-terms/get-purchase-terms.query';
import { DomainError } from '../platform/errors/domain-error';
import type { PageContext, PageHandler } from './web-app';
import { formatCents } from './pages';

type Page = (handler: PageHandler) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type Form = Record<string, string | string[] | undefined>;
type Row = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const formOf = (request: FastifyRequest) => ((request.body ?? {}) as Form) || {};
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';
const many = (value: string | string[] | undefined) => (Array.isArray(value) ? value : value ? [value] : []);
/** The form's own Idempotency-Key (rendered with it); a form without a sane one gets a fresh key. */
const moneyFormKey = (form: Form) => {
  const key = one(form.idempotencyKey);
  return UUID.test(key) ? key : randomUUID();
};
/** Dollars typed in a form, as integer cents; null when not a plain amount. */
const centsFrom = (value: string) => (/^\d{1,7}(\.\d{1,2})?$/.test(value.trim()) ? Math.round(Number(value.trim()) * 100) : null);

/** A spend policy's money rules: the form's field (in dollars) and the API's field (in cents). */
const POLICY_AMOUNTS = [
  ['maxPerPurchase', 'maxPerPurchaseCents'],
  ['dailyLimit', 'dailyLimitCents'],
  ['monthlyLimit', 'monthlyLimitCents'],
  ['requireApprovalAbove', 'requireApprovalAboveCents'],
] as const;
type AmountField = (typeof POLICY_AMOUNTS)[number][0];
type PolicyForm = Record<AmountField | 'name' | 'vendors', string> & { blockedTypes: string[]; active: boolean };
const amountFields = (value: (field: AmountField, api: string) => string) =>
  Object.fromEntries(POLICY_AMOUNTS.map(([field, api]) => [field, value(field, api)])) as Record<AmountField, string>;

/** A policy as its form shows it: amounts in dollars, empty for no limit. */
const policyFormOf = (policy: Row): PolicyForm => ({
  name: String(policy.name ?? ''),
  ...amountFields((_field, api) => (typeof policy[api] === 'number' ? ((policy[api] as number) / 100).toFixed(2) : '')),
  vendors: ((policy.vendorAllowlist as string[] | undefined) ?? []).join(', '),
  blockedTypes: (policy.blockedTypes as string[] | undefined) ?? [],
  active: policy.active !== false,
});

/** The submitted form, as typed (shown again when the API refuses it). */
const policyFormFrom = (form: Form): PolicyForm => ({
  name: one(form.name),
  ...amountFields((field) => one(form[field]).trim()),
  vendors: one(form.vendors),
  blockedTypes: many(form.blockedTypes),
  active: one(form.active) === 'true',
});

/**
 * The API's body for a policy form: every field, so an edit replaces the rules as shown. An empty amount
 * is null (no limit); one that is not a number goes as typed, so the API's own message explains it.
 */
function policyBody(draft: PolicyForm): Row {
  const body: Row = {
    name: draft.name.trim(),
    vendorAllowlist: draft.vendors.split(/[\s,]+/).filter(Boolean),
    blockedTypes: draft.blockedTypes,
    active: draft.active,
  };
  for (const [field, api] of POLICY_AMOUNTS) {
    const typed = draft[field];
    body[api] = !typed ? null : /^-?\d{1,15}(\.\d{1,2})?$/.test(typed) ? Math.round(Number(typed) * 100) : typed;
  }
  return body;
}

/** Pages for a signed-in person: approvals, checkout, invitations, tokens, policies, wallet, organizations. */
export function registerAccountPages(
  web: FastifyInstance,
  page: Page,
  csrfChecked: { preHandler: preHandlerHookHandler },
  options: { sandboxPayments: boolean; queries: QueryBus },
): void {
  // Approvals: what an agent wanted to buy beyond its spend policy.
  web.get(
    '/approvals',
    page(async (_request, _reply, { render, requireSignIn, api }) => {
      if (requireSignIn()) return;
      const answer = await api<{ approvals: Row[] }>('GET', '/v1/approvals');
      const approvals = answer.status === 200 ? answer.body.approvals.map(describeApproval) : [];
      return render('approvals.njk', {
        title: 'Purchases waiting for you',
        approvals,
        error: answer.status === 200 ? null : answer.body.message,
      });
    }),
  );

  const showApproval = async (
    id: string,
    { render, api }: Parameters<PageHandler>[2],
    notice?: { text: string; ok: boolean },
  ) => {
    const answer = await api('GET', `/v1/approvals/${id}`);
    if (answer.status !== 200) return render('error.njk', { title: 'Not found', message: 'No such approval request.' }, 404);
    const approval = describeApproval(answer.body);
    return render('approval.njk', { title: `Approve buying ${approval.listingTitle}?`, approval, notice });
  };

  web.get(
    '/approvals/:id',
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const { id } = request.params as { id: string };
      if (!UUID.test(id)) return context.render('error.njk', { title: 'Not found', message: 'No such approval request.' }, 404);
      return showApproval(id, context);
    }),
  );

  web.post(
    '/approvals/:id',
    csrfChecked,
    page(async (request, reply, context) => {
      if (context.requireSignIn()) return;
      const { id } = request.params as { id: string };
      if (!UUID.test(id)) return context.render('error.njk', { title: 'Not found', message: 'No such approval request.' }, 404);
      const decision = one(formOf(request).decision);
      if (decision !== 'approve' && decision !== 'decline') return showApproval(id, context);
      const form = formOf(request);
      const answer = await context.api(
        'POST',
        `/v1/approvals/${id}/${decision}`,
        undefined,
        decision === 'approve' ? moneyFormKey(form) : undefined,
      );
      if (answer.status === 200) {
        const text = decision === 'approve' ? 'Approved: the purchase is made.' : 'Declined: nothing was bought.';
        return showApproval(id, context, { text, ok: true });
      }
      // A card purchase with no saved card: its checkout adds one and completes this approval there.
      const checkout = answer.status === 402 ? checkoutPathOf(answer.body.approvalUrl) : null;
      if (checkout) return reply.redirect(checkout, 303);
      return showApproval(id, context, { text: answer.body.message ?? 'That did not work.', ok: false });
    }),
  );

  /** What the listing costs this buyer: its terms as the buyer may see them; a draft, unknown or hidden one is null. */
  const termsFor = async (userId: string, listingId: string, releaseId: string): Promise<PurchaseTerms | null> => {
    try {
      return await options.queries.execute(
        new GetPurchaseTermsQuery({ listingId, releaseId: releaseId || undefined, buyerId: userId }),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return null;
      throw error;
    }
  };

  /**
   * What a checkout request names: a listing (and release), or an approved purchase of it that still needs a card. An
   * approval is read through the API as the signed-in user, so someone else's, or one for another listing, is null
   * (404), and it fixes the release. Malformed ids are null too.
   */
  const checkoutOf = async (
    { api }: PageContext,
    listingId: string,
    releaseId: string,
    approvalId: string,
  ): Promise<Checkout | null> => {
    if (!UUID.test(listingId) || (releaseId && !UUID.test(releaseId)) || (approvalId && !UUID.test(approvalId))) return null;
    if (!approvalId) return { listingId, releaseId, approval: null };
    const answer = await api('GET', `/v1/approvals/${approvalId}`);
    if (answer.status !== 200 || answer.body.listingId !== listingId) return null;
    const approval = describeApproval(answer.body);
    return { listingId, releaseId: String(approval.releaseId), approval };
  };
  const checkoutPath = ({ listingId, releaseId, approval }: Checkout) => {
    const query = new URLSearchParams({
      ...(releaseId ? { releaseId } : {}),
      ...(approval ? { approvalId: String(approval.id) } : {}),
    });
    return `/checkout/${listingId}${query.toString() ? `?${query}` : ''}`;
  };
  const noSuchCheckout = ({ render }: PageContext) =>
    render('error.njk', { title: 'Not found', message: 'No such package or purchase.' }, 404);

  /** The checkout page as GET shows it (what is bought, saved cards, the gateway's card form), plus what `extra` adds. */
  const showCheckout = async (
    context: PageContext,
    checkout: Checkout,
    extra: (paymentMethods: Row[]) => Record<string, unknown>,
    status = 200,
  ) => {
    const { render, api, session } = context;
    const [terms, methods] = await Promise.all([
      termsFor(session!.userId, checkout.listingId, checkout.releaseId),
      api<{ paymentMethods?: Row[] }>('GET', '/v1/billing/payment-methods'),
    ]);
    if (!terms) return noSuchCheckout(context);
    const paymentMethods = methods.status === 200 ? (methods.body.paymentMethods ?? []) : [];
    const { approval } = checkout;
    return render(
      'checkout.njk',
      {
        title: `Buy ${terms.listingTitle}`,
        listingId: checkout.listingId,
        releaseId: checkout.releaseId,
        approvalId: approval?.id ?? '',
        // An approved purchase is bought on the terms asked for: by card, once; a decided or expired one no more.
        approvalClosed: approval && approval.status !== 'pending' ? approval.status : null,
        listing: {
          title: terms.listingTitle,
          vendorName: terms.vendorName,
          vendorSlug: terms.vendorSlug,
          slug: terms.listingSlug,
          version: terms.version,
          price: terms.priceCents ? formatCents(terms.priceCents) : 'Free',
        },
        sandbox: options.sandboxPayments,
        paymentMethods,
        ...extra(paymentMethods),
      },
      status,
    );
  };

  // Checkout: the card purchase a 402 pointed at (no saved payment method, or the owner buys on the web), or an
  // approved purchase that needs a card first (`approvalId`).
  web.get(
    '/checkout/:listingId',
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const { listingId } = request.params as { listingId: string };
      const query = request.query as Form;
      const checkout = await checkoutOf(context, listingId, one(query.releaseId), one(query.approvalId));
      if (!checkout) return noSuchCheckout(context);
      // Back from the processor's hosted form: its webhook saves the card, which may not be listed yet.
      const card = one(query.card);
      const returned = card === 'added' || card === 'canceled';
      return showCheckout(context, checkout, (paymentMethods) =>
        returned && !options.sandboxPayments
          ? card === 'canceled'
            ? { cardNotice: { ok: false, text: 'No card was added.' } }
            : paymentMethods.length
              ? { cardNotice: { ok: true, text: 'Your card is saved.' } }
              : { cardPending: request.url, cardPendingLink: 'Refresh this page' }
          : {},
      );
    }),
  );

  // The processor's hosted card form (Stripe Checkout), which comes back to this checkout; the form's key makes a
  // resubmission the same session.
  web.post(
    '/checkout/:listingId/hosted-card',
    csrfChecked,
    page(async (request, reply, context) => {
      const { render, requireSignIn, api } = context;
      if (requireSignIn()) return;
      const { listingId } = request.params as { listingId: string };
      const form = formOf(request);
      const checkout = await checkoutOf(context, listingId, one(form.releaseId), one(form.approvalId));
      if (!checkout) return noSuchCheckout(context);
      const { releaseId, approval } = checkout;
      const answer = await api<{ url?: string }>(
        'POST',
        '/v1/billing/card-setup-session',
        { listingId, ...(releaseId ? { releaseId } : {}), ...(approval ? { approvalId: approval.id } : {}) },
        moneyFormKey(form),
      );
      if (answer.status !== 200 || !answer.body.url)
        return render(
          'error.njk',
          { title: 'Card not added', message: answer.body.message ?? 'The card form could not be opened. Try again shortly.' },
          answer.status >= 500 ? 502 : 400,
        );
      return reply.redirect(answer.body.url, 303);
    }),
  );

  // The sandbox's card form: a test card saved through a setup intent the sandbox confirms with it, exactly as a card
  // typed into the processor's form would be; one that declines is refused there, as the processor refuses it.
  web.post(
    '/checkout/:listingId/card',
    csrfChecked,
    page(async (request, _reply, context) => {
      const { render, requireSignIn, api } = context;
      if (requireSignIn()) return;
      const { listingId } = request.params as { listingId: string };
      const form = formOf(request);
      const checkout = await checkoutOf(context, listingId, one(form.releaseId), one(form.approvalId));
      if (!checkout) return noSuchCheckout(context);
      if (!options.sandboxPayments)
        return showCheckout(context, checkout, () => ({ cardError: "Add your card on the payment processor's page." }), 400);
      const card = typedSandboxCard(one(form.cardNumber));
      if (typeof card === 'string') return showCheckout(context, checkout, () => ({ cardError: card }), 400);
      const answer = await api('POST', '/v1/billing/setup-intent', undefined, moneyFormKey(form), {
        [SANDBOX_CARD_HEADER]: card.number,
      });
      if (answer.status !== 200 && answer.status !== 201)
        return render(
          'error.njk',
          { title: 'Card not saved', message: answer.body.message ?? 'The card could not be saved.' },
          400,
        );
      const refused = card.setup === 'saved' ? null : `${declined(card.setup)} The card was not saved: try another test card.`;
      if (refused) return showCheckout(context, checkout, () => ({ cardError: refused }), 400);
      return showCheckout(context, checkout, () => ({ cardPending: checkoutPath(checkout) }));
    }),
  );

  web.post(
    '/checkout/:listingId',
    csrfChecked,
    page(async (request, _reply, context) => {
      const { requireSignIn, api } = context;
      if (requireSignIn()) return;
      const { listingId } = request.params as { listingId: string };
      const form = formOf(request);
      const checkout = await checkoutOf(context, listingId, one(form.releaseId), one(form.approvalId));
      if (!checkout) return noSuchCheckout(context);
      const { releaseId, approval } = checkout;
      // An approved purchase is completed by approving it, so it is bought once, on the terms it was asked for.
      const answer = approval
        ? await api('POST', `/v1/approvals/${approval.id}/approve`, undefined, moneyFormKey(form))
        : await api(
            'POST',
            '/v1/purchases',
            { listingId, ...(releaseId ? { releaseId } : {}), useWallet: one(form.funding) === 'wallet', channel: 'web' },
            moneyFormKey(form),
          );
      const done = answer.status === 200;
      return showCheckout(
        context,
        checkout,
        () => ({
          notice: {
            ok: done,
            text: done
              ? answer.body.status === 'already_owned'
                ? 'You already own this package.'
                : 'Purchased: the package is yours.'
              : (answer.body.message ?? String(answer.body.reason ?? 'The purchase did not go through.')),
          },
        }),
        done ? 200 : 400,
      );
    }),
  );

  // Invitations to an organization: accepted by whoever signed in with the invited e-mail.
  web.get(
    '/invitations/:token',
    page(async (request, _reply, { render, requireSignIn }) => {
      if (requireSignIn()) return;
      const { token } = request.params as { token: string };
      if (!/^[\w-]{8,200}$/.test(token)) return render('error.njk', { title: 'Not found', message: 'No such invitation.' }, 404);
      return render('invitation.njk', { title: 'Join an organization', token });
    }),
  );

  web.post(
    '/invitations/:token',
    csrfChecked,
    page(async (request, _reply, { render, requireSignIn, api }) => {
      if (requireSignIn()) return;
      const { token } = request.params as { token: string };
      if (!/^[\w-]{8,200}$/.test(token)) return render('error.njk', { title: 'Not found', message: 'No such invitation.' }, 404);
      const answer = await api('POST', '/v1/orgs/accept-invite', { token });
      const ok = answer.status === 200 || answer.status === 201;
      return render(
        'invitation.njk',
        {
          title: 'Join an organization',
          token,
          notice: {
            ok,
            text: ok ? 'You have joined the organization.' : (answer.body.message ?? 'This invitation cannot be accepted.'),
          },
        },
        ok ? 200 : 400,
      );
    }),
  );

  // Tokens: list, create (shown once), revoke.
  const showTokens = async (
    { render, api, session }: Parameters<PageHandler>[2],
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    const [tokens, policies] = await Promise.all([
      api<{ tokens: Row[] }>('GET', '/v1/auth/tokens'),
      api<{ policies: Row[] }>('GET', '/v1/policies'),
    ]);
    return render(
      'tokens.njk',
      {
        title: 'API tokens',
        // This browser's own session token is not listed: revoking it is signing out.
        tokens: tokens.status === 200 ? tokens.body.tokens.filter((t) => t.id !== session?.tokenId) : [],
        policies: policies.status === 200 ? policies.body.policies : [],
        scopes: SCOPES,
        ...extra,
      },
      status,
    );
  };

  web.get(
    '/settings/tokens',
    page(async (_request, _reply, context) => {
      if (context.requireSignIn()) return;
      return showTokens(context);
    }),
  );

  web.post(
    '/settings/tokens',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const form = formOf(request);
      const days = one(form.expiresInDays).trim();
      const policyId = one(form.policyId);
      const body: Row = { name: one(form.name).trim(), scopes: many(form.scopes) };
      if (days) body.expiresInDays = /^\d{1,4}$/.test(days) ? Number(days) : days;
      if (policyId) body.policyId = policyId;
      const answer = await context.api('POST', '/v1/auth/tokens', body);
      if (answer.status === 201) return showTokens(context, { created: answer.body });
      return showTokens(context, { error: answer.body.message ?? 'The token was not created.' }, 400);
    }),
  );

  web.post(
    '/settings/tokens/:id/revoke',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const { id } = request.params as { id: string };
      const answer = UUID.test(id) ? await context.api('DELETE', `/v1/auth/tokens/${id}`) : { status: 404, body: {} };
      if (answer.status === 200) return showTokens(context, { notice: 'Token revoked.' });
      return showTokens(context, { error: 'No such token.' }, 404);
    }),
  );

  // Spend policies: list, create, edit, delete. Forms are in dollars; the API counts cents.
  const showPolicies = async (
    { render, api }: Parameters<PageHandler>[2],
    extra: {
      notice?: string;
      error?: string;
      /** The create form as typed, with the API's refusal. */
      created?: { draft: PolicyForm; error: string };
      /** One policy's edit form as typed, with the API's refusal. */
      edited?: { id: string; draft: PolicyForm; error: string };
    } = {},
    status = 200,
  ) => {
    const answer = await api<{ policies: Row[] }>('GET', '/v1/policies');
    const money = (value: unknown) => (typeof value === 'number' ? formatCents(value) : '—');
    const listed = answer.status === 200 ? answer.body.policies : [];
    const edited = extra.edited && listed.some((p) => p.id === extra.edited!.id) ? extra.edited : null;
    const policies = listed.map((p) => {
      const refused = edited && edited.id === p.id ? edited : null;
      return {
        ...p,
        perPurchase: money(p.maxPerPurchaseCents),
        daily: money(p.dailyLimitCents),
        monthly: money(p.monthlyLimitCents),
        approvalAbove: money(p.requireApprovalAboveCents),
        form: refused ? refused.draft : policyFormOf(p),
        editError: refused ? refused.error : null,
      };
    });
    // A refused edit of a policy no longer listed (deleted meanwhile) is shown at the top.
    const orphanError = extra.edited && !edited ? extra.edited.error : null;
    return render(
      'policies.njk',
      {
        title: 'Spend policies',
        policies,
        types: POLICY_PACKAGE_TYPES,
        newPolicy: extra.created?.draft ?? policyFormOf({ name: '', active: true }),
        createError: extra.created?.error ?? null,
        notice: extra.notice ?? null,
        error: extra.error ?? orphanError ?? (answer.status === 200 ? null : answer.body.message),
      },
      status,
    );
  };
  const refusedStatus = (status: number) => (status === 404 ? 404 : 400);

  web.get(
    '/settings/policies',
    page(async (_request, _reply, context) => {
      if (context.requireSignIn()) return;
      return showPolicies(context);
    }),
  );

  web.post(
    '/settings/policies',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const draft = policyFormFrom(formOf(request));
      const answer = await context.api('POST', '/v1/policies', policyBody(draft));
      if (answer.status === 201) return showPolicies(context, { notice: `Policy “${answer.body.name}” created.` });
      const error = answer.body.message ?? 'The policy was not created.';
      return showPolicies(context, { created: { draft, error } }, refusedStatus(answer.status));
    }),
  );

  web.post(
    '/settings/policies/:id',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const { id } = request.params as { id: string };
      if (!UUID.test(id)) return showPolicies(context, { error: 'No such spend policy.' }, 404);
      const draft = policyFormFrom(formOf(request));
      const answer = await context.api('PATCH', `/v1/policies/${id}`, policyBody(draft));
      if (answer.status === 200) return showPolicies(context, { notice: `Policy “${answer.body.name}” saved.` });
      const error = answer.body.message ?? 'The policy was not saved.';
      return showPolicies(context, { edited: { id, draft, error } }, refusedStatus(answer.status));
    }),
  );

  web.post(
    '/settings/policies/:id/delete',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const { id } = request.params as { id: string };
      const answer = UUID.test(id) ? await context.api('DELETE', `/v1/policies/${id}`) : { status: 404, body: {} };
      if (answer.status === 200)
        return showPolicies(context, { notice: 'Policy deleted. Tokens bound to it now need approval for every purchase.' });
      return showPolicies(context, { error: 'No such spend policy.' }, 404);
    }),
  );

  // Wallet: balance, transactions, top-up, auto top-up.
  const showWallet = async ({ render, api }: Parameters<PageHandler>[2], extra: Record<string, unknown> = {}, status = 200) => {
    const [wallet, transactions] = await Promise.all([
      api<Row>('GET', '/v1/wallet'),
      api<{ transactions: Row[] }>('GET', '/v1/wallet/transactions'),
    ]);
    const w = wallet.status === 200 ? wallet.body : null;
    return render(
      'wallet.njk',
      {
        title: 'Wallet',
        balance: w ? formatCents(w.balanceCents) : null,
        auto: w
          ? {
              enabled: w.autoTopUpEnabled,
              threshold: ((w.autoTopUpThresholdCents as number) / 100).toFixed(2),
              amount: ((w.autoTopUpAmountCents as number) / 100).toFixed(2),
            }
          : null,
        transactions: (transactions.status === 200 ? transactions.body.transactions : []).map((t) => ({
          ...t,
          amount: formatCents(t.amountCents),
          after: formatCents(t.balanceAfterCents),
        })),
        ...extra,
      },
      status,
    );
  };

  web.get(
    '/wallet',
    page(async (_request, _reply, context) => {
      if (context.requireSignIn()) return;
      return showWallet(context);
    }),
  );

  web.post(
    '/wallet/top-up',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const form = formOf(request);
      const cents = centsFrom(one(form.amount));
      if (cents === null) return showWallet(context, { error: 'Enter an amount in dollars, like 20 or 12.50.' }, 400);
      // In the sandbox the top-up is paid with the test card typed beside the amount (the 4242 Visa if none).
      const card = options.sandboxPayments ? typedSandboxCard(one(form.cardNumber) || DEFAULT_SANDBOX_CARD.number) : null;
      if (typeof card === 'string') return showWallet(context, { error: card }, 400);
      const answer = await context.api(
        'POST',
        '/v1/wallet/top-up',
        { amountCents: cents },
        moneyFormKey(form),
        card ? { [SANDBOX_CARD_HEADER]: card.number } : undefined,
      );
      if ((answer.status === 200 || answer.status === 201) && card && card.charge !== 'succeeds')
        return showWallet(context, {
          // Not a success to show in green: the request went through, the payment will not.
          declining:
            `Top-up of ${formatCents(cents)} requested with the test card ending ${card.last4}, which the sandbox declines: ` +
            `${declined(card.charge)} It fails as it would with the processor, and the balance stays as it is.`,
        });
      if (answer.status === 200 || answer.status === 201)
        return showWallet(context, {
          notice: `Top-up of ${formatCents(cents)} requested; the balance grows once the payment settles.`,
        });
      return showWallet(context, { error: answer.body.message ?? 'The top-up was refused.' }, 400);
    }),
  );

  web.post(
    '/wallet/auto-top-up',
    csrfChecked,
    page(async (request, _reply, context) => {
      if (context.requireSignIn()) return;
      const form = formOf(request);
      const enabled = one(form.enabled) === 'true';
      const thresholdCents = centsFrom(one(form.threshold));
      const amountCents = centsFrom(one(form.amount));
      if (thresholdCents === null || amountCents === null)
        return showWallet(context, { error: 'Enter amounts in dollars, like 20 or 12.50.' }, 400);
      const answer = await context.api('PATCH', '/v1/wallet/auto-top-up', { enabled, thresholdCents, amountCents });
      if (answer.status === 200) return showWallet(context, { notice: 'Auto top-up saved.' });
      return showWallet(context, { error: answer.body.message ?? 'Auto top-up was not saved.' }, 400);
    }),
  );

  // Organizations (the API is being built alongside; a server without it shows none).
  web.get(
    '/orgs',
    page(async (_request, _reply, { render, requireSignIn, api }) => {
      if (requireSignIn()) return;
      const answer = await api<{ orgs: Row[] }>('GET', '/v1/orgs');
      const orgs = answer.status === 200 ? answer.body.orgs : [];
      // Each org with its members (an org left or deleted since the list was read shows none).
      const withMembers = await Promise.all(
        orgs.map(async (org) => {
          const detail = await api<{ members: Row[] }>('GET', `/v1/orgs/${encodeURIComponent(String(org.slug))}`);
          return { ...org, members: detail.status === 200 ? detail.body.members : [] };
        }),
      );
      return render('orgs.njk', { title: 'Organizations', orgs: withMembers });
    }),
  );
}

/** The sandbox test card a form names, or what is wrong with it (the sandbox's own 400 message). */
function typedSandboxCard(typed: string): SandboxTestCard | string {
  try {
    return sandboxTestCard(typed);
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}

/** A decline as the processor words it, with its codes. */
const declined = (decline: CardDecline) => `${decline.message} (${decline.code}: ${decline.declineCode})`;

function describeApproval(approval: Row) {
  const expired =
    approval.status === 'expired' || (approval.status === 'pending' && Date.parse(String(approval.expiresAt)) <= Date.now());
  return {
    ...approval,
    status: expired ? 'expired' : approval.status,
    price: formatCents(approval.priceCents),
    funding: approval.useWallet ? 'your wallet' : 'your saved card',
  } as unknown as Row & { listingTitle: string; status: string };
}

/** The path of a checkout URL the API answered (`{WEB_URL}/checkout/...`), never anywhere else; null otherwise. */
function checkoutPathOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const { pathname, search } = new URL(url);
    return /^\/checkout\/[0-9a-f-]{36}$/i.test(pathname) ? `${pathname}${search}` : null;
  } catch {
    return null;
  }
}

/** A checkout: the listing (and release) bought, and the approved purchase it completes, if any. */
interface Checkout {
  listingId: string;
  releaseId: string;
  approval: ReturnType<typeof describeApproval> | null;
}
