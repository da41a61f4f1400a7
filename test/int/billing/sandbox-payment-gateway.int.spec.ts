import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpAdapterHost } from '@nestjs/core';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../../../src/config/app-config';
import { ownWebhookUrlFrom } from '../../../src/modules/billing/adapters/own-webhook-url';
import { SandboxEvent, SandboxSetupIntentObject } from '../../../src/modules/billing/adapters/sandbox-events';
import { SandboxCardEntry } from '../../../src/modules/billing/adapters/sandbox-card-entry';
import { SandboxPaymentGateway } from '../../../src/modules/billing/adapters/sandbox-payment-gateway';
import { sandboxTestCard } from '../../../src/modules/billing/adapters/sandbox-test-cards';
import { WebhookSignature } from '../../../src/modules/billing/adapters/webhook-signature';
import { PaymentGatewayError } from '../../../src/modules/billing/domain/payment-gateway';
import { SANDBOX_SETTLEMENT_QUEUE, SETTLE_AFTER_MS } from '../../../src/modules/billing/workers/sandbox-settlement.jobs';
import { SandboxSettlementWorker } from '../../../src/modules/billing/workers/sandbox-settlement.worker';
import { SystemClock } from '../../../src/platform/clock/clock';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { dataSourceOptions } from '../../../src/platform/database/database.module';
import { Queues } from '../../../src/platform/queue/queues';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

/** What the webhook route received: the raw body, its signature header, and the event parsed. */
interface Delivery {
  body: Buffer;
  signature: string | undefined;
  event: SandboxEvent;
}

/** A stand-in for our webhook route on loopback: records every delivery and answers 200 unless told to fail. */
interface Receiver {
  server: http.Server;
  deliveries: Delivery[];
  /** The next `times` deliveries about this intent are answered 500. */
  failNext(intentId: string, times: number): void;
  about(intentId: string): Delivery[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const failures = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const event = JSON.parse(body.toString('utf8')) as SandboxEvent;
      deliveries.push({ body, signature: req.headers['pay-signature'] as string | undefined, event });
      const left = failures.get(event.data.object.id) ?? 0;
      if (left > 0) failures.set(event.data.object.id, left - 1);
      res.writeHead(left > 0 ? 500 : 200, { 'content-type': 'application/json' });
      res.end(left > 0 ? '{"message":"try again"}' : '{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    deliveries,
    failNext: (intentId, times) => failures.set(intentId, times),
    about: (intentId) => deliveries.filter((delivery) => delivery.event.data.object.id === intentId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const WEB_URL = 'http://web.test';
const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
/** Long enough for a settlement queued with SETTLE_AFTER_MS to have been delivered, had it been queued. */
const QUIET_MS = SETTLE_AFTER_MS + 1_500;

/** A loopback URL where nothing listens: a port just released. */
async function unusedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1/webhooks/pay`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const key = () => randomUUID();
const ALPHANUMERICS = '[0-9A-Za-z]{24}';

describe('the sandbox payment gateway', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let config: AppConfig;
  let queues: Queues;
  let receiver: Receiver;
  /** Auto settle on, with the settlement worker delivering to the receiver. */
  let settling: SandboxPaymentGateway;
  /** Auto settle off: nothing is ever queued. */
  let manual: SandboxPaymentGateway;
  /** Set: the worker delivers there instead (a port nobody listens on). */
  let deliverTo: string | undefined;

  const gateway = (autoSettle: boolean) =>
    new SandboxPaymentGateway(dataSource, queues, new SystemClock(), { autoSettle, webUrl: WEB_URL, webhookSecret: SECRET });

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions(db.url, { max: 4, connectTimeoutMs: 5_000 })).initialize();
    // BullMQ on PostgreSQL, the default backend, in this file's own database.
    config = loadConfig({ DATABASE_URL: db.url, NODE_ENV: 'test' });
    queues = new Queues(config);
    receiver = await startReceiver();
    settling = gateway(true);
    manual = gateway(false);
    // The receiver plays our HTTP server: the worker finds it from its bound address, as it finds ours.
    const ownUrl = ownWebhookUrlFrom({ httpAdapter: { getHttpServer: () => receiver.server } } as unknown as HttpAdapterHost);
    const webhookUrl = () => deliverTo ?? ownUrl();
    new SandboxSettlementWorker(queues, settling, webhookUrl, config).onApplicationBootstrap();
    await queues.started();
  });

  afterAll(async () => {
    await queues?.onApplicationShutdown();
    await receiver?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  const count = async (table: string, idempotencyKey: string): Promise<number> => {
    const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE idempotency_key = $1`, [idempotencyKey]);
    return row.n;
  };

  const customer = async (): Promise<string> =>
    (await manual.createCustomer({ ownerId: randomUUID(), idempotencyKey: key() })).customerId;

  /** A customer with one saved card, settled by hand. */
  const customerWithCard = async (): Promise<{ customerId: string; paymentMethodId: string }> => {
    const customerId = await customer();
    const setup = await manual.createSetupIntent({ customerId, metadata: {}, idempotencyKey: key() });
    const { event } = await manual.settle(setup.id);
    return { customerId, paymentMethodId: (event.data.object as SandboxSetupIntentObject).payment_method as string };
  };

  const verifies = (delivery: { body: Buffer; signature: string | undefined }) =>
    new WebhookSignature(SECRET).verifies(delivery.body, delivery.signature, new Date());

  describe('idempotency: one key, one object', () => {
    it('creates one customer per key, sequentially and concurrently, in the processor id form', async () => {
      const ownerId = randomUUID();
      const first = await manual.createCustomer({ ownerId, idempotencyKey: 'customer-key-1' });
      const again = await manual.createCustomer({ ownerId, idempotencyKey: 'customer-key-1' });
      expect(first.customerId).toMatch(new RegExp(`^cus_${ALPHANUMERICS}$`));
      expect(again).toEqual(first);

      const racing = await Promise.all(
        Array.from({ length: 8 }, () => manual.createCustomer({ ownerId, idempotencyKey: 'customer-key-2' })),
      );
      expect(new Set(racing.map((r) => r.customerId)).size).toBe(1);
      expect(racing[0].customerId).not.toBe(first.customerId);
      expect(await count('sandbox_customers', 'customer-key-2')).toBe(1);
    });

    it('creates one payment intent per key, sequentially and concurrently, with the processor id and secret forms', async () => {
      const customerId = await customer();
      const request = { amountCents: 2_500, customerId, metadata: { walletId: 'w-1' }, idempotencyKey: key() };
      const first = await manual.createPaymentIntent(request);
      expect(first).toEqual({
        id: expect.stringMatching(new RegExp(`^pi_${ALPHANUMERICS}$`)),
        clientSecret: expect.stringMatching(new RegExp(`^${first.id}_secret_${ALPHANUMERICS}$`)),
        amountCents: 2_500,
        status: 'requires_payment_method',
      });
      expect(await manual.createPaymentIntent(request)).toEqual(first);

      const concurrent = { ...request, idempotencyKey: key() };
      const racing = await Promise.all(Array.from({ length: 8 }, () => manual.createPaymentIntent(concurrent)));
      expect(new Set(racing.map((intent) => intent.id)).size).toBe(1);
      expect(new Set(racing.map((intent) => intent.clientSecret)).size).toBe(1);
      expect(racing[0].id).not.toBe(first.id);
      expect(await count('sandbox_payment_intents', concurrent.idempotencyKey)).toBe(1);
    });

    it('creates one setup intent per key, sequentially and concurrently, and one charge per key', async () => {
      const { customerId, paymentMethodId } = await customerWithCard();
      const setup = { customerId, metadata: { ownerId: 'o-1' }, idempotencyKey: key() };
      const racing = await Promise.all(Array.from({ length: 8 }, () => manual.createSetupIntent(setup)));
      expect(new Set(racing.map((intent) => intent.id)).size).toBe(1);
      expect(racing[0].id).toMatch(new RegExp(`^seti_${ALPHANUMERICS}$`));
      expect(racing[0].clientSecret).toMatch(new RegExp(`^${racing[0].id}_secret_${ALPHANUMERICS}$`));
      expect(await manual.createSetupIntent(setup)).toEqual(racing[0]);
      expect(await count('sandbox_setup_intents', setup.idempotencyKey)).toBe(1);

      const charge = { amountCents: 1_000, customerId, paymentMethodId, metadata: {}, idempotencyKey: key() };
      const charges = await Promise.all(Array.from({ length: 4 }, () => manual.chargeOffSession(charge)));
      expect(new Set(charges.map((intent) => intent.id)).size).toBe(1);
      expect(await count('sandbox_payment_intents', charge.idempotencyKey)).toBe(1);
    });

    it('refuses a key replayed with other parameters, as the processor does', async () => {
      const customerId = await customer();
      const request = { amountCents: 2_500, customerId, metadata: { walletId: 'w-1' }, idempotencyKey: key() };
      await manual.createPaymentIntent(request);
      await expect(manual.createPaymentIntent({ ...request, amountCents: 2_600 })).rejects.toThrow(PaymentGatewayError);
      await expect(manual.createPaymentIntent({ ...request, metadata: { walletId: 'w-2' } })).rejects.toThrow(/same parameters/);
      await expect(manual.createCustomer({ ownerId: 'someone-else', idempotencyKey: request.idempotencyKey })).resolves.toEqual({
        customerId: expect.stringMatching(/^cus_/), // keys are unique per kind, not across kinds
      });
    });
  });

  describe('charges and cards', () => {
    it('charges a saved card of the customer off-session, and declines any other card with a message', async () => {
      const { customerId, paymentMethodId } = await customerWithCard();
      const other = await customerWithCard();

      const paid = await manual.chargeOffSession({
        amountCents: 1_500,
        customerId,
        paymentMethodId,
        metadata: { walletId: 'w-1' },
        idempotencyKey: key(),
      });
      expect(paid).toEqual({
        id: expect.stringMatching(/^pi_/),
        clientSecret: expect.any(String),
        amountCents: 1_500,
        status: 'succeeded',
      });

      for (const foreign of [other.paymentMethodId, 'pm_unknown']) {
        const declined = await manual.chargeOffSession({
          amountCents: 1_500,
          customerId,
          paymentMethodId: foreign,
          metadata: {},
          idempotencyKey: key(),
        });
        expect(declined.status).toBe('failed');
        expect(declined.failureMessage).toContain('does not belong to the customer');
      }
    });

    it('shows a saved card by its five fields only: the test Visa 4242, expiring in December three years on', async () => {
      const { customerId, paymentMethodId } = await customerWithCard();
      const card = {
        id: paymentMethodId,
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 3,
      };
      expect(paymentMethodId).toMatch(new RegExp(`^pm_${ALPHANUMERICS}$`));
      const retrieved = await manual.retrievePaymentMethod(paymentMethodId);
      expect(retrieved).toStrictEqual(card);
      expect(Object.keys(retrieved).sort()).toEqual(['brand', 'expMonth', 'expYear', 'id', 'last4']);
      expect(await manual.listPaymentMethods(customerId)).toStrictEqual([card]);
      expect(await manual.listPaymentMethods(await customer())).toEqual([]);
    });

    it('answers a portal session under the web app address', async () => {
      const customerId = await customer();
      expect(await manual.createPortalSession({ customerId, returnUrl: `${WEB_URL}/wallet` })).toEqual({
        url: `${WEB_URL}/billing?sandbox=1`,
      });
    });

    it('refuses unknown ids with a PaymentGatewayError naming them', async () => {
      await expect(manual.retrievePaymentMethod('pm_nope')).rejects.toThrow(
        new PaymentGatewayError("No such PaymentMethod: 'pm_nope'"),
      );
      await expect(manual.listPaymentMethods('cus_nope')).rejects.toThrow(/No such customer: 'cus_nope'/);
      await expect(manual.createSetupIntent({ customerId: 'cus_nope', metadata: {}, idempotencyKey: key() })).rejects.toThrow(
        PaymentGatewayError,
      );
      await expect(
        manual.createPaymentIntent({ amountCents: 500, customerId: 'cus_nope', metadata: {}, idempotencyKey: key() }),
      ).rejects.toThrow(/No such customer/);
      await expect(manual.createPortalSession({ customerId: 'cus_nope', returnUrl: WEB_URL })).rejects.toThrow(
        PaymentGatewayError,
      );
      await expect(manual.settle('pi_nope')).rejects.toThrow(/No such payment_intent/);
      await expect(manual.settle('nope')).rejects.toThrow(PaymentGatewayError);
    });
  });

  describe('with auto settle on', () => {
    it('delivers a created top-up once, a moment later, as the processor signed payment_intent.succeeded event', async () => {
      const customerId = await customer();
      const request = {
        amountCents: 2_500,
        customerId,
        metadata: { walletId: 'w-1', topUpId: 't-1' },
        description: 'Wallet top-up',
        idempotencyKey: key(),
      };
      const created = Date.now();
      const intent = await settling.createPaymentIntent(request);
      expect(intent.status).toBe('requires_payment_method'); // the customer has not "paid" yet
      await settling.createPaymentIntent(request); // a retried call queues nothing more

      const [delivery] = await eventually(() => receiver.about(intent.id).length === 1 && receiver.about(intent.id));
      expect(Date.now() - created).toBeGreaterThanOrEqual(SETTLE_AFTER_MS);
      expect(verifies(delivery)).toBe(true);
      // The processor's SDK accepts it as one of its own events.
      const parsed = Stripe.webhooks.constructEvent(delivery.body, delivery.signature!, SECRET);
      expect(parsed).toEqual({
        id: expect.stringMatching(new RegExp(`^evt_${ALPHANUMERICS}$`)),
        object: 'event',
        type: 'payment_intent.succeeded',
        api_version: Stripe.API_VERSION,
        created: expect.any(Number),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: {
          object: expect.objectContaining({
            id: intent.id,
            object: 'payment_intent',
            amount: 2_500,
            amount_received: 2_500,
            currency: 'usd',
            customer: customerId,
            description: 'Wallet top-up',
            metadata: { walletId: 'w-1', topUpId: 't-1' },
            status: 'succeeded',
            client_secret: intent.clientSecret,
            payment_method: expect.stringMatching(/^pm_/),
            livemode: false,
          }),
        },
      });

      await sleep(QUIET_MS);
      expect(receiver.about(intent.id)).toHaveLength(1);
      expect(await settling.createPaymentIntent(request)).toEqual({ ...intent, status: 'succeeded' });
    });

    it('delivers the same event again to a receiver that answered 500', async () => {
      const intent = await settling.createPaymentIntent({
        amountCents: 700,
        metadata: { topUpId: 't-2' },
        idempotencyKey: key(),
      });
      receiver.failNext(intent.id, 1);

      const [failed, delivered] = await eventually(() => receiver.about(intent.id).length === 2 && receiver.about(intent.id));
      expect(delivered.body.equals(failed.body)).toBe(true);
      expect(delivered.event.id).toBe(failed.event.id);
      expect(delivered.event.data.object).toMatchObject({ amount: 700, metadata: { topUpId: 't-2' }, customer: null });
      expect(verifies(failed) && verifies(delivered)).toBe(true);

      await sleep(QUIET_MS);
      expect(receiver.about(intent.id)).toHaveLength(2);
    });

    it('delivers again after a refused connection', async () => {
      deliverTo = await unusedPortUrl();
      try {
        const intent = await settling.createPaymentIntent({ amountCents: 800, metadata: {}, idempotencyKey: key() });
        const settlements = queues.queue(SANDBOX_SETTLEMENT_QUEUE);
        await eventually(async () => ((await settlements.getJob(intent.id))?.attemptsMade ?? 0) >= 1);
        expect(receiver.about(intent.id)).toEqual([]);
        deliverTo = undefined;
        const [delivery] = await eventually(() => receiver.about(intent.id).length === 1 && receiver.about(intent.id));
        expect(verifies(delivery)).toBe(true);
      } finally {
        deliverTo = undefined;
      }
    });

    it('settles a setup intent into a saved card of its customer, announced by setup_intent.succeeded', async () => {
      const customerId = await customer();
      const setup = await settling.createSetupIntent({ customerId, metadata: { ownerId: 'o-1' }, idempotencyKey: key() });
      expect(await settling.listPaymentMethods(customerId)).toEqual([]);

      const [delivery] = await eventually(() => receiver.about(setup.id).length === 1 && receiver.about(setup.id));
      expect(verifies(delivery)).toBe(true);
      const { event } = delivery;
      expect(event.type).toBe('setup_intent.succeeded');
      expect(event.data.object).toMatchObject({
        id: setup.id,
        object: 'setup_intent',
        customer: customerId,
        metadata: { ownerId: 'o-1' },
        status: 'succeeded',
        client_secret: setup.clientSecret,
        usage: 'off_session',
      });
      const cards = await settling.listPaymentMethods(customerId);
      expect(cards).toEqual([
        expect.objectContaining({
          id: (event.data.object as SandboxSetupIntentObject).payment_method,
          brand: 'visa',
          last4: '4242',
        }),
      ]);
    });

    it("announces an off-session charge, and never one refused for a card that is not the customer's", async () => {
      const { customerId, paymentMethodId } = await customerWithCard();
      const paid = await settling.chargeOffSession({
        amountCents: 1_200,
        customerId,
        paymentMethodId,
        metadata: { autoTopUp: 'yes' },
        idempotencyKey: key(),
      });
      const declined = await settling.chargeOffSession({
        amountCents: 1_200,
        customerId,
        paymentMethodId: 'pm_unknown',
        metadata: {},
        idempotencyKey: key(),
      });

      const [delivery] = await eventually(() => receiver.about(paid.id).length === 1 && receiver.about(paid.id));
      expect(delivery.event).toMatchObject({
        type: 'payment_intent.succeeded',
        data: { object: { id: paid.id, amount: 1_200, payment_method: paymentMethodId, metadata: { autoTopUp: 'yes' } } },
      });
      await sleep(QUIET_MS);
      expect(receiver.about(declined.id)).toEqual([]);
    });
  });

  describe("the processor's test cards", () => {
    const typed = (number: string) => sandboxTestCard(number);
    /** A customer who saved this test card, settled by hand. */
    const customerWithTestCard = async (number: string) => {
      const customerId = await customer();
      const setup = await SandboxCardEntry.run(typed(number), () =>
        manual.createSetupIntent({ customerId, metadata: {}, idempotencyKey: key() }),
      );
      const { event } = await manual.settle(setup.id);
      return { customerId, event, paymentMethodId: (event.data.object as SandboxSetupIntentObject).payment_method as string };
    };
    const topUpWith = (gateway: SandboxPaymentGateway, number: string) =>
      SandboxCardEntry.run(typed(number), () =>
        gateway.createPaymentIntent({ amountCents: 1_000, metadata: { topUpId: randomUUID() }, idempotencyKey: key() }),
      );

    it('4242 pays a top-up, the card it confirmed with being the test Visa 4242', async () => {
      const intent = await topUpWith(manual, '4242 4242 4242 4242');
      const { event } = await manual.settle(intent.id);
      expect(event).toMatchObject({
        type: 'payment_intent.succeeded',
        data: { object: { status: 'succeeded', amount_received: 1_000 } },
      });
      const method = (event.data.object as { payment_method: string }).payment_method;
      expect(await manual.retrievePaymentMethod(method)).toMatchObject({ brand: 'visa', last4: '4242' });
    });

    it("0002 and 9995 decline a top-up with the processor's codes and message, announced as payment_intent.payment_failed", async () => {
      for (const [number, declineCode, message] of [
        ['4000000000000002', 'generic_decline', 'Your card was declined.'],
        ['4000-0000-0000-9995', 'insufficient_funds', 'Your card has insufficient funds.'],
      ]) {
        const intent = await topUpWith(manual, number);
        const signed = await manual.settle(intent.id);
        const parsed = Stripe.webhooks.constructEvent(signed.payload, signed.signature, SECRET);
        expect(parsed).toMatchObject({
          type: 'payment_intent.payment_failed',
          data: {
            object: {
              id: intent.id,
              status: 'requires_payment_method',
              amount_received: 0,
              last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: declineCode, message },
            },
          },
        });
        // The same event on every settlement, and never a success.
        expect((await manual.settle(intent.id)).event.id).toBe(signed.event.id);
        expect(await manual.listSucceededPaymentIntents()).not.toContainEqual(expect.objectContaining({ id: intent.id }));
      }
    });

    it('0002 and 9995 cannot be saved: the setup fails with the decline, announced as setup_intent.setup_failed', async () => {
      for (const [number, declineCode] of [
        ['4000000000000002', 'generic_decline'],
        ['4000000000009995', 'insufficient_funds'],
      ]) {
        const { customerId, event } = await customerWithTestCard(number);
        expect(event).toMatchObject({
          type: 'setup_intent.setup_failed',
          data: {
            object: {
              status: 'requires_payment_method',
              payment_method: null,
              last_setup_error: { type: 'card_error', code: 'card_declined', decline_code: declineCode },
            },
          },
        });
        expect(await manual.listPaymentMethods(customerId)).toEqual([]);
      }
    });

    it('0341 saves fine, and every off-session charge of it is declined (card_declined) and announced', async () => {
      const { customerId, event, paymentMethodId } = await customerWithTestCard('4000000000000341');
      expect(event.type).toBe('setup_intent.succeeded');
      expect(await manual.listPaymentMethods(customerId)).toEqual([expect.objectContaining({ brand: 'visa', last4: '0341' })]);
      for (let attempt = 0; attempt < 2; attempt++) {
        const charge = await settling.chargeOffSession({
          amountCents: 900,
          customerId,
          paymentMethodId,
          metadata: { attempt: String(attempt) },
          idempotencyKey: key(),
        });
        expect(charge).toMatchObject({ status: 'failed', failureMessage: 'Your card was declined.' });
        const [delivery] = await eventually(() => receiver.about(charge.id).length === 1 && receiver.about(charge.id));
        expect(verifies(delivery)).toBe(true);
        expect(delivery.event).toMatchObject({
          type: 'payment_intent.payment_failed',
          data: {
            object: {
              id: charge.id,
              payment_method: paymentMethodId,
              last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
            },
          },
        });
      }
    });

    it('settles a top-up with auto settle on with the card typed when it was created, never the default', async () => {
      const intent = await topUpWith(settling, '4000000000009995');
      const [delivery] = await eventually(() => receiver.about(intent.id).length === 1 && receiver.about(intent.id));
      expect(delivery.event).toMatchObject({
        type: 'payment_intent.payment_failed',
        data: { object: { last_payment_error: { decline_code: 'insufficient_funds' } } },
      });
    });

    it('refuses what is not a test card with a 400 naming the ones it takes', () => {
      for (const [number, message] of [
        ['4242 4242 4242 4241', /card number is incorrect/],
        ['not a card', /card number is incorrect/],
        ['5555555555554444', /takes only test cards.*4242 4242 4242 4242 succeeds/],
        ['4111 1111 1111 1111', /takes only test cards/],
      ] as const) {
        let refused: unknown;
        try {
          sandboxTestCard(number);
        } catch (error) {
          refused = error;
        }
        expect(refused).toBeInstanceOf(DomainError);
        expect((refused as DomainError).code).toBe('invalid');
        expect((refused as DomainError).message).toMatch(message);
      }
    });
  });

  describe('connected accounts', () => {
    it('creates one account per key, sequentially and concurrently, tagged with its vendor', async () => {
      const idempotencyKey = key();
      const vendorId = randomUUID();
      const accounts = await Promise.all(
        Array.from({ length: 5 }, () => manual.createConnectedAccount({ vendorId, idempotencyKey })),
      );
      const { accountId } = accounts[0];
      expect(accountId).toMatch(new RegExp(`^acct_${ALPHANUMERICS}$`));
      expect(accounts).toEqual(Array(5).fill({ accountId }));
      expect(await manual.createConnectedAccount({ vendorId, idempotencyKey })).toEqual({ accountId });
      expect(await count('sandbox_connected_accounts', idempotencyKey)).toBe(1);
      await expect(manual.createConnectedAccount({ vendorId: randomUUID(), idempotencyKey })).rejects.toThrow(/same parameters/);
    });

    it('links onboarding back to the return URL, and refuses a dashboard link until onboarding is complete', async () => {
      const { accountId } = await manual.createConnectedAccount({ vendorId: randomUUID(), idempotencyKey: key() });
      const link = await manual.createAccountLink({
        accountId,
        refreshUrl: `${WEB_URL}/vendor/onboarding/refresh`,
        returnUrl: `${WEB_URL}/vendor/onboarding/return?x=1`,
      });
      expect(link.url).toBe(`${WEB_URL}/vendor/onboarding/return?x=1&sandbox=1`);
      await expect(manual.createLoginLink(accountId)).rejects.toThrow(/not completed onboarding/);
      await manual.settle(accountId);
      expect((await manual.createLoginLink(accountId)).url).toBe(`${WEB_URL}/vendor/payouts?sandbox=1`);
      await expect(manual.createLoginLink('acct_nope')).rejects.toThrow("No such account: 'acct_nope'");
      await expect(manual.createAccountLink({ accountId: 'acct_nope', refreshUrl: WEB_URL, returnUrl: WEB_URL })).rejects.toThrow(
        PaymentGatewayError,
      );
    });

    it('completes onboarding by itself with auto settle on, announced once by a signed account.updated', async () => {
      const vendorId = randomUUID();
      const request = { vendorId, idempotencyKey: key() };
      const { accountId } = await settling.createConnectedAccount(request);
      await settling.createConnectedAccount(request); // a retried call queues nothing more

      const [delivery] = await eventually(() => receiver.about(accountId).length === 1 && receiver.about(accountId));
      expect(verifies(delivery)).toBe(true);
      const parsed = Stripe.webhooks.constructEvent(delivery.body, delivery.signature!, SECRET);
      expect(parsed).toMatchObject({
        id: expect.stringMatching(new RegExp(`^evt_${ALPHANUMERICS}$`)),
        object: 'event',
        type: 'account.updated',
        account: accountId,
        data: {
          object: {
            id: accountId,
            object: 'account',
            type: 'express',
            charges_enabled: true,
            details_submitted: true,
            payouts_enabled: true,
            metadata: { vendorId },
          },
        },
      });
      await sleep(QUIET_MS);
      expect(receiver.about(accountId)).toHaveLength(1);
      expect((await settling.createLoginLink(accountId)).url).toMatch(/^http/);
    });

    it('with auto settle off, queues nothing; settle() answers the same account.updated each time', async () => {
      const { accountId } = await manual.createConnectedAccount({ vendorId: randomUUID(), idempotencyKey: key() });
      await sleep(QUIET_MS);
      expect(receiver.about(accountId)).toEqual([]);
      expect(await queues.queue(SANDBOX_SETTLEMENT_QUEUE).getJob(accountId)).toBeUndefined();
      const settled = await manual.settle(accountId);
      expect(settled.event).toMatchObject({
        type: 'account.updated',
        data: { object: { id: accountId, charges_enabled: true } },
      });
      expect((await manual.settle(accountId)).payload).toBe(settled.payload);
    });
  });

  describe('with auto settle off', () => {
    it('queues and delivers nothing; settle() answers the signed event, the same one each time', async () => {
      const { customerId, paymentMethodId } = await customerWithCard();
      const topUp = await manual.createPaymentIntent({ amountCents: 900, customerId, metadata: {}, idempotencyKey: key() });
      const setup = await manual.createSetupIntent({ customerId, metadata: {}, idempotencyKey: key() });
      const charge = await manual.chargeOffSession({
        amountCents: 900,
        customerId,
        paymentMethodId,
        metadata: {},
        idempotencyKey: key(),
      });

      await sleep(QUIET_MS);
      const settlements = queues.queue(SANDBOX_SETTLEMENT_QUEUE);
      for (const id of [topUp.id, setup.id, charge.id]) {
        expect(receiver.about(id)).toEqual([]);
        expect(await settlements.getJob(id)).toBeUndefined();
      }

      const settled = await manual.settle(topUp.id);
      expect(verifies({ body: Buffer.from(settled.payload), signature: settled.signature })).toBe(true);
      expect(JSON.parse(settled.payload)).toEqual(settled.event);
      expect(settled.event).toMatchObject({
        type: 'payment_intent.succeeded',
        data: { object: { id: topUp.id, status: 'succeeded' } },
      });
      const again = await manual.settle(topUp.id);
      expect(again.payload).toBe(settled.payload);
      expect(receiver.about(topUp.id)).toEqual([]);
    });
  });
});
