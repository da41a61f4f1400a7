import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventStore } from '../../src/event-store/event-store';
import { LogPosition } from '../../src/event-store/log-position';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { ProcessorsService } from '../../src/projections/processors.service';
import { processorName } from '../../src/projections/runner/processor';
import { Caller, callerFor, eventually, newCaller } from './accounts';
import { startTestApp, TestApp } from './app';
import { FakeService, PATIENT, startFakeService } from './fake-services';
import { deliverWebhook, FakeStripe, StripeEvent } from './fake-stripe';
import { json } from './http';
import { addMember, createOrg } from './orgs';
import { keyPair } from './signing-keys';
import { buildZip } from './zip-builder';

const WEBHOOK_SECRET = 'whsec_money_and_network_flows';

/**
 * The app on a loopback Stripe (the real SDK, webhooks signed as Stripe signs
 * them) with a vendor's live service on loopback: what the money and network
 * flows run against.
 */
export interface FlowsWorld {
  app: TestApp;
  stripe: FakeStripe;
  service: FakeService;
  /** The app's payment settings, for the operator commands (`ledger`) to reach the same processor. */
  paymentEnv: Record<string, string>;
  /** Posts a Stripe event to the app's webhook route, signed with the app's secret; it must be accepted. */
  deliver(event: StripeEvent | undefined): Promise<void>;
  /** Delivers every event Stripe emitted that was not delivered yet, as Stripe would (an off-session charge's, say). */
  deliverTheRest(): Promise<void>;
  close(): Promise<void>;
}

export async function startFlowsWorld(): Promise<FlowsWorld> {
  const stripe = await FakeStripe.start();
  const service = await startFakeService('https');
  const paymentEnv = { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url };
  const app = await startTestApp({
    env: {
      ...paymentEnv,
      ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true',
      // One probe, at registration: a probe later would append while a test compares.
      SERVICE_PROBE_INTERVAL_MS: String(24 * 60 * 60_000),
      ...PATIENT,
    },
  });
  const delivered = new Set<string>();
  const deliver = async (event: StripeEvent | undefined) => {
    if (!event) throw new Error('no such Stripe event to deliver');
    const { status } = await deliverWebhook(app.url, event, WEBHOOK_SECRET);
    if (status !== 200) throw new Error(`the webhook answered ${status} to ${event.type}`);
    delivered.add(event.id);
  };
  return {
    app,
    stripe,
    service,
    paymentEnv,
    deliver,
    async deliverTheRest() {
      for (const event of [...stripe.events]) if (!delivered.has(event.id)) await deliver(event);
    },
    async close() {
      await app.close();
      await service.close();
      await stripe.close();
    },
  };
}

/** What the flows left behind, for the tests to check against. */
export interface FlowsRecord {
  vendor: Caller;
  vendorSlug: string;
  alice: Caller;
  bob: Caller;
  orgSlug: string;
  serviceListingId: string;
  /** Alice's wallet balance at the end, in cents. */
  aliceBalanceCents: number;
}

interface Published {
  listingId: string;
  releaseId: string;
  slug: string;
}

/**
 * Drives the money and network flows through the HTTP API, as users, agents
 * and the processor would: top-ups settled by signed webhooks, wallet and card
 * purchases (one declined), an auto top-up, spend policies with approvals
 * granted and declined, an org with its wallet, policy and an approved
 * purchase, metered calls (one failing, so refunded), a session with messages,
 * reviews, votes and a reply, downloads, a vendor with signed releases and a
 * connected account, a device sign-in, a revoked token and a deleted account.
 * Returns once every processor has applied all of it.
 */
export async function driveMoneyAndNetworkFlows(world: FlowsWorld): Promise<FlowsRecord> {
  const { app, stripe, service, deliver } = world;
  // The answer's JSON (as test/support/http's json() gives it), once its status is one expected (200 or 201 unless told).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const ok = async (answer: Response | Promise<Response>, ...expected: number[]): Promise<any> => {
    const response = await answer;
    const body = await json(response);
    if (!(expected.length ? expected : [200, 201]).includes(response.status))
      throw new Error(`${response.url}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const intentOf = (clientSecret: string) => clientSecret.split('_secret_')[0];
  const balanceOf = async (caller: Caller, path = '/v1/wallet') => (await ok(caller.call('GET', path))).balanceCents as number;
  const topUp = async (caller: Caller, amountCents: number, path = '/v1/wallet') => {
    const before = await balanceOf(caller, path);
    const { clientSecret } = await ok(caller.call('POST', `${path}/top-up`, { amountCents }));
    await deliver(stripe.succeedPaymentIntent(intentOf(clientSecret)));
    await eventually(async () => (await balanceOf(caller, path)) === before + amountCents, {
      description: `a top-up of ${amountCents} cents on ${path}`,
    });
  };
  /** The processor's event of `type` for the intent whose metadata has `key` (equal to `value`, when given). */
  const chargeEvent = (type: string, key: 'orderId' | 'purpose', value?: string) =>
    stripe.events.find((e) => {
      const metadata = (e.data.object as { metadata?: Record<string, string> }).metadata ?? {};
      return e.type === type && (value === undefined ? metadata[key] !== undefined : metadata[key] === value);
    });

  // A vendor with a signing key, signed releases (one listing with two), a live metered service and a connected account.
  const vendor = await newCaller(app);
  const vendorSlug = `flows-${randomUUID().slice(0, 8)}`;
  await ok(
    vendor.call('POST', '/v1/vendor/profile', {
      slug: vendorSlug,
      displayName: 'Flows & Co',
      website: 'https://flows.example.com',
    }),
  );
  const key = keyPair();
  await ok(vendor.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: key.fingerprint }));
  const publish = async (slug: string, priceCents: number, version = '1.0.0'): Promise<Published> => {
    const archive = buildZip([
      {
        name: 'manifest.json',
        data: JSON.stringify({
          slug,
          version,
          type: 'skill',
          title: `The ${slug} kit`,
          description: `Everything ${slug} needs.`,
          targets: ['claude-code'],
          tags: ['flows'],
          tools: ['run'],
        }),
      },
      { name: 'README.md', data: `# ${slug}\n\nA package for the flows.\n` },
    ]);
    const form = new FormData();
    form.append('priceCents', String(priceCents));
    form.append('signature', key.sign(archive));
    form.append('archive', new Blob([new Uint8Array(archive)], { type: 'application/zip' }), 'package.zip');
    const { release, listing } = await ok(vendor.call('POST', '/v1/vendor/releases', form), 201);
    await ok(vendor.call('PATCH', `/v1/vendor/releases/${release.id}/publish`));
    await eventually(async () => (await ok(fetch(`${app.url}/v1/listings/${vendorSlug}/${slug}`))).latestVersion === version, {
      description: `${slug} ${version} to be scanned and published`,
    });
    return { listingId: listing.id, releaseId: release.id, slug };
  };
  const kit = await publish('kit', 1500);
  await publish('kit', 1500, '1.1.0');
  const guide = await publish('guide', 800);
  const extra = await publish('extra', 700);
  const tool = await publish('tool', 900);
  const bundle = await publish('bundle', 2500);
  const deluxe = await publish('deluxe', 3000);
  const teamKit = await publish('team-kit', 1200);
  const free = await publish('free-notes', 0);
  const live = await publish('live', 0);
  await ok(vendor.call('PATCH', `/v1/vendor/listings/${guide.listingId}`, { title: 'The guide, edited' }));
  await ok(
    vendor.call('PATCH', `/v1/vendor/listings/${live.listingId}`, {
      serviceEndpoint: service.url,
      serviceProtocol: 'https',
      pricingModel: 'metered',
      perCallCents: 25,
      settlementMethods: ['wallet'],
    }),
  );
  await eventually(
    async () =>
      (await ok(vendor.call('GET', '/v1/network/service-health'))).listings.find((l: { id: string }) => l.id === live.listingId)
        ?.latestCheck != null,
    { description: 'the first probe of the live service' },
  );
  await ok(vendor.call('POST', '/v1/vendor/onboard'));
  await deliver(stripe.completeOnboarding(stripe.accountLinksMade().at(-1)!.account));
  await eventually(async () => (await vendor.call('POST', '/v1/billing/seller-dashboard-link')).status === 200, {
    description: 'the connected account to be onboarded',
  });

  // Alice: a top-up, a wallet purchase, a saved card, a card purchase, a declined one, an auto top-up.
  const alice = await newCaller(app);
  await ok(alice.call('PATCH', '/v1/users/me', { name: 'Alice Flows' }));
  await topUp(alice, 10_000);
  await ok(alice.call('POST', '/v1/purchases', { listingId: kit.listingId, useWallet: true }));
  const { clientSecret: cardSetup } = await ok(alice.call('POST', '/v1/billing/setup-intent'));
  await deliver(stripe.completeSetupIntent(intentOf(cardSetup)));
  await eventually(async () => (await ok(alice.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 1, {
    description: 'the card to be saved',
  });
  const byCard = await ok(alice.call('POST', '/v1/purchases', { listingId: guide.listingId }));
  await deliver(chargeEvent('payment_intent.succeeded', 'orderId', byCard.orderId));
  await eventually(async () => (await alice.call('GET', `/v1/entitlements/${guide.listingId}`)).status === 200, {
    description: 'the card purchase to be granted',
  });
  stripe.declineOffSessionCharges('Your card was declined.');
  try {
    await ok(alice.call('POST', '/v1/purchases', { listingId: extra.listingId }), 402);
  } finally {
    stripe.declineOffSessionCharges(null);
  }
  const { orders } = await ok(alice.call('GET', '/v1/orders'));
  const declined = orders.find((o: { listingId: string }) => o.listingId === extra.listingId);
  await deliver(chargeEvent('payment_intent.payment_failed', 'orderId', declined.id)); // Stripe reports it too
  await ok(alice.call('PATCH', '/v1/wallet/auto-top-up', { enabled: true, thresholdCents: 8_480, amountCents: 2_000 }));

  // Metered calls: the first leaves the wallet below the threshold (an auto top-up follows), one fails and is refunded.
  const callPath = `/v1/services/${vendorSlug}/${live.slug}/call`;
  await ok(alice.call('POST', callPath, { tool: 'echo', input: { text: 'one' } }));
  const autoTopUps = () =>
    stripe.events.filter(
      (e) =>
        e.type === 'payment_intent.succeeded' &&
        (e.data.object as { metadata: Record<string, string> }).metadata.purpose === 'auto_top_up',
    );
  const [firstAutoTopUp] = await eventually(() => autoTopUps().length === 1 && autoTopUps(), {
    description: 'the auto top-up to be charged',
  });
  await deliver(firstAutoTopUp);
  await eventually(async () => (await balanceOf(alice)) === 10_000 - 1_500 - 25 + 2_000, {
    description: 'the auto top-up to be credited',
  });
  await ok(alice.call('POST', callPath, { tool: 'echo' }, { 'idempotency-key': 'flows-call' }));
  await ok(alice.call('POST', callPath, { tool: 'echo' }, { 'idempotency-key': 'flows-call' })); // a replay, charged once
  await ok(alice.call('POST', callPath, { tool: 'fail' }), 502);
  await ok(alice.call('POST', callPath, { tool: 'echo' }));

  // A session with messages, closed.
  const { session } = await ok(
    alice.call('POST', '/v1/network/sessions', { vendor: vendorSlug, slug: live.slug, intent: 'quote' }),
  );
  await ok(alice.call('POST', `/v1/network/sessions/${session.id}/messages`, { type: 'quote.request', payload: { n: 1 } }));
  await ok(alice.call('POST', `/v1/network/sessions/${session.id}/close`));

  // An agent under a spend policy: a purchase within it, one approved, one declined; a second policy deleted.
  const policy = await ok(alice.call('POST', '/v1/policies', { name: 'agent budget', requireApprovalAboveCents: 1_000 }));
  await ok(alice.call('PATCH', `/v1/policies/${policy.id}`, { dailyLimitCents: 15_000, monthlyLimitCents: 40_000 }));
  const spare = await ok(alice.call('POST', '/v1/policies', { name: 'spare', maxPerPurchaseCents: 100 }));
  await ok(alice.call('DELETE', `/v1/policies/${spare.id}`));
  const minted = await ok(
    alice.call('POST', '/v1/auth/tokens', { name: 'agent', scopes: ['purchase', 'read'], policyId: policy.id }),
  );
  const agent = callerFor(app, alice.userId, minted.token);
  await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
  await ok(agent.call('POST', '/v1/purchases', { listingId: tool.listingId, useWallet: true }));
  const approvalOf = (body: { approvalUrl: string }) => body.approvalUrl.split('/').at(-1)!;
  const asked = await ok(agent.call('POST', '/v1/purchases', { listingId: bundle.listingId, useWallet: true }), 402);
  await ok(alice.call('POST', `/v1/approvals/${approvalOf(asked)}/approve`));
  // That purchase left the wallet below the auto top-up's threshold again.
  const [, secondAutoTopUp] = await eventually(() => autoTopUps().length === 2 && autoTopUps(), {
    description: 'the second auto top-up to be charged',
  });
  await deliver(secondAutoTopUp);
  await eventually(async () => (await balanceOf(alice)) === 10_000 - 1_500 + 2 * 2_000 - 3 * 25 - 900 - 2_500, {
    description: 'the second auto top-up to be credited',
  });
  const refused = await ok(agent.call('POST', '/v1/purchases', { listingId: deluxe.listingId, useWallet: true }), 402);
  await ok(alice.call('POST', `/v1/approvals/${approvalOf(refused)}/decline`));

  // Reviews, a vote and the vendor's reply; downloads (a free listing is granted on its first).
  const bob = await newCaller(app);
  const reviews = `/v1/listings/${vendorSlug}/kit/reviews`;
  const { review } = await ok(alice.call('POST', reviews, { rating: 4, body: 'Does the job.' }));
  await ok(alice.call('POST', reviews, { rating: 5, body: 'Does the job well.' })); // edited
  await ok(bob.call('POST', reviews, { rating: 3 }));
  await ok(bob.call('POST', `${reviews}/${review.id}/vote`, { helpful: true }));
  await ok(vendor.call('POST', `/v1/vendor/reviews/${review.id}/reply`, { body: 'Thank you.' }));
  await ok(alice.call('POST', '/v1/downloads', { releaseId: kit.releaseId }));
  await ok(alice.call('POST', '/v1/downloads', { releaseId: free.releaseId }));

  // An org with a member and an open invitation: its wallet topped up, its auto top-up configured, a policy, and a member's purchase the owner approves.
  const org = await createOrg(alice);
  await addMember(app, alice, org.slug, bob, 'member');
  await ok(alice.call('POST', `/v1/orgs/${org.slug}/members`, { email: 'dana@example.com', role: 'admin' })); // still open
  await topUp(alice, 3_000, `/v1/orgs/${org.slug}/wallet`);
  await ok(
    alice.call('PATCH', `/v1/orgs/${org.slug}/wallet/auto-top-up`, { enabled: false, thresholdCents: 500, amountCents: 1_000 }),
  );
  await ok(alice.call('POST', `/v1/orgs/${org.slug}/policies`, { name: 'team cap', maxPerPurchaseCents: 1_000 }));
  const teamAsk = await ok(bob.call('POST', '/v1/purchases', { listingId: teamKit.listingId, orgSlug: org.slug }), 402);
  await ok(alice.call('POST', `/v1/approvals/${approvalOf(teamAsk)}/approve`));

  // A device sign-in, a token revoked, and an account deleted.
  const device = await ok(fetch(`${app.url}/v1/auth/device/start`, { method: 'POST' }));
  await ok(alice.call('POST', '/v1/auth/device/approve', { userCode: device.userCode }));
  await ok(
    fetch(`${app.url}/v1/auth/device/poll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceCode: device.deviceCode }),
    }),
  );
  const spareToken = await ok(alice.call('POST', '/v1/auth/tokens', { name: 'spare', scopes: ['read'] }));
  await ok(alice.call('DELETE', `/v1/auth/tokens/${spareToken.id}`));
  const carol = await newCaller(app);
  await topUp(carol, 1_000);
  await ok(carol.call('DELETE', '/v1/users/me'));
  await eventually(async () => (await carol.call('GET', '/v1/wallet')).status === 401, {
    description: "the deleted account's token to be refused",
  });

  // Stripe delivers every event it emitted: any the flows did not hand over themselves arrives now.
  await world.deliverTheRest();
  await allProcessorsSettled(app);
  const aliceBalanceCents = await balanceOf(alice);
  await allProcessorsSettled(app);
  return { vendor, vendorSlug, alice, bob, orgSlug: org.slug, serviceListingId: live.listingId, aliceBalanceCents };
}

/**
 * Waits until the log has stopped growing and every processor (projections and
 * process managers) has applied all of it; answers the head. A request's token
 * use is recorded beside its answer, so a last append may land just after the
 * answer: the head is read again after the processors caught up with it.
 */
export async function allProcessorsSettled(app: TestApp): Promise<LogPosition> {
  const store = app.server.app.get(EventStore);
  const waiter = app.server.app.get(ProjectionWaiter);
  const names = app.server.app.get(ProcessorsService).processors.map(processorName);
  return eventually(
    async () => {
      const head = (await store.headPosition()) ?? LogPosition.START;
      if (!(await waiter.waitForProcessors(names, head, 20_000))) return false;
      const [{ dead }] = await app.server.app.get(DataSource).query('SELECT count(*)::int AS dead FROM processor_dead_letters');
      if (dead > 0) throw new Error(`${dead} dead letter(s): a processor gave up on an event`);
      const again = (await store.headPosition()) ?? LogPosition.START;
      return again.compare(head) === 0 && head;
    },
    { description: 'every processor to apply the whole log' },
  );
}
