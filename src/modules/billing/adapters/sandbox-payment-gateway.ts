import { randomInt } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { Clock } from '../../../platform/clock/clock';
import { Queues } from '../../../platform/queue/queues';
import {
  CardPaymentMethod,
  CardSetupSession,
  ChargeOffSession,
  CreateAccountLink,
  CreateCardSetupSession,
  CreateConnectedAccount,
  CreateCustomer,
  CreatePaymentIntent,
  CreatePortalSession,
  CreateSetupIntent,
  CURRENCY,
  PaymentGateway,
  PaymentGatewayError,
  PaymentIntent,
  SetupIntent,
  SucceededPaymentIntent,
  TimeWindow,
} from '../domain/payment-gateway';
import { SANDBOX_SETTLEMENT_QUEUE, SandboxSettlementJob, settlementJobOptions } from '../workers/sandbox-settlement.jobs';
import { SandboxCardEntry } from './sandbox-card-entry';
import {
  accountUpdated,
  ConnectedAccountRow,
  PaymentIntentRow,
  paymentIntentFailed,
  paymentIntentSucceeded,
  SetupIntentRow,
  setupIntentFailed,
  setupIntentSucceeded,
  SignedSandboxEvent,
} from './sandbox-events';
import { CardDecline, SandboxTestCard, storedSandboxCard } from './sandbox-test-cards';
import { webhookSecretFor, WebhookSignature } from './webhook-signature';

export interface SandboxGatewayOptions {
  /** Settle each intent by itself a moment after it is created (PAY_SANDBOX_AUTO_SETTLE). */
  autoSettle: boolean;
  /** The web app's address: the sandbox has no hosted portal, so its "portal" is the web app's billing page. */
  webUrl: string;
  /** Signs settled events as the processor signs its webhooks. */
  webhookSecret: string;
}

/** Every sandbox card expires in December, this many years on. */
const CARD_EXPIRY = { month: 12, yearsValid: 3 };

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_RANDOM_CHARS = 24;
/** The largest amount the processor accepts, in cents. */
const MAX_AMOUNT_CENTS = 99_999_999;

type Table = 'sandbox_customers' | 'sandbox_payment_intents' | 'sandbox_setup_intents' | 'sandbox_connected_accounts';

interface CustomerRow {
  id: string;
  owner_id: string;
}

interface PaymentMethodRow {
  id: string;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** The test card it is; null on rows from before the sandbox knew several (the 4242 Visa). */
  card_number: string | null;
}

export function sandboxPaymentGatewayFor(
  config: AppConfig,
  dataSource: DataSource,
  queues: Queues,
  clock: Clock,
): SandboxPaymentGateway {
  return new SandboxPaymentGateway(dataSource, queues, clock, {
    autoSettle: config.payments.sandboxAutoSettle,
    webUrl: config.webUrl,
    webhookSecret: webhookSecretFor(config.payments, config.dataDir),
  });
}

/**
 * The processor played by our own PostgreSQL (`sandbox_` tables), so the
 * service runs with no processor account. From the service's side it behaves
 * like the processor: its ids and client secrets, idempotency keys, and, when
 * auto settle is on, each intent settled a moment later by a durable job that
 * POSTs the processor's signed event to our own webhook route (see
 * SandboxSettlementWorker).
 *
 * It takes the processor's test cards (see SANDBOX_TEST_CARDS): a top-up or a
 * setup intent is confirmed with the card its customer typed, named by the
 * creating request's `Pay-Sandbox-Card` (SandboxCardEntry), else with the
 * 4242 Visa; an off-session charge pays with the saved card. A declining card
 * makes the intent fail as the processor's does: `payment_intent.payment_failed`
 * (or `setup_intent.setup_failed`, nothing saved) with `last_payment_error`
 * carrying the code, decline code and message; an off-session charge answers
 * `failed` at once and is announced so too. There is no onboarding form: a
 * connected account completes onboarding by itself, announced by
 * `account.updated` with charges enabled and details submitted.
 *
 * Unknown ids are refused as the processor refuses them ("No such customer:
 * 'cus_...'"), with a PaymentGatewayError.
 */
export class SandboxPaymentGateway extends PaymentGateway {
  readonly name = 'sandbox' as const;
  private readonly signature: WebhookSignature;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: Queues,
    private readonly clock: Clock,
    private readonly options: SandboxGatewayOptions,
  ) {
    super();
    this.signature = new WebhookSignature(options.webhookSecret);
  }

  get autoSettles(): boolean {
    return this.options.autoSettle;
  }

  async createCustomer({ ownerId, idempotencyKey }: CreateCustomer): Promise<{ customerId: string }> {
    const row = await this.insertOnce<CustomerRow>('sandbox_customers', {
      id: newId('cus'),
      owner_id: ownerId,
      idempotency_key: idempotencyKey,
      created_at: this.clock.now(),
    });
    if (row.owner_id !== ownerId) throw keyReused(idempotencyKey);
    return { customerId: row.id };
  }

  async createPaymentIntent(request: CreatePaymentIntent): Promise<PaymentIntent> {
    checkAmount(request.amountCents);
    if (request.customerId) await this.requireCustomer(request.customerId);
    const row = await this.insertPaymentIntent(request, {
      status: 'requires_payment_method',
      offSession: false,
      cardNumber: SandboxCardEntry.current()?.number,
    });
    await this.scheduleSettlement(row);
    return toPaymentIntent(row);
  }

  async chargeOffSession(request: ChargeOffSession): Promise<PaymentIntent> {
    checkAmount(request.amountCents);
    await this.requireCustomer(request.customerId);
    const method = await this.findPaymentMethod(request.paymentMethodId);
    // Not the customer's card: refused outright, no card error, so never announced.
    const refused =
      method?.customer_id === request.customerId
        ? undefined
        : `The payment method ${request.paymentMethodId} does not belong to the customer ${request.customerId}.`;
    const charge = method && !refused ? storedSandboxCard(method.card_number).charge : 'succeeds';
    const decline = charge === 'succeeds' ? undefined : charge;
    const row = await this.insertPaymentIntent(request, {
      status: refused || decline ? 'failed' : 'succeeded',
      failureMessage: refused ?? decline?.message,
      decline,
      offSession: true,
      paymentMethodId: request.paymentMethodId,
    });
    await this.scheduleSettlement(row);
    return toPaymentIntent(row);
  }

  async createSetupIntent({ customerId, metadata, idempotencyKey }: CreateSetupIntent): Promise<SetupIntent> {
    await this.requireCustomer(customerId);
    const id = newId('seti');
    const row = await this.insertOnce<SetupIntentRow>('sandbox_setup_intents', {
      id,
      client_secret: clientSecretOf(id),
      customer_id: customerId,
      metadata: JSON.stringify(metadata),
      status: 'requires_payment_method',
      // The card the customer typed on the form that asked for this intent, which confirms it.
      card_number: SandboxCardEntry.current()?.number ?? null,
      idempotency_key: idempotencyKey,
      created_at: this.clock.now(),
    });
    if (row.customer_id !== customerId || !sameMetadata(row.metadata, metadata)) throw keyReused(idempotencyKey);
    await this.scheduleSettlement(row);
    return { id: row.id, clientSecret: row.client_secret };
  }

  /**
   * No hosted card form stands behind the sandbox: the link leads straight back, `sandbox=1` telling the web app
   * so; its checkout page saves the test card through a setup intent itself.
   */
  async createCardSetupSession({ customerId, cancelUrl }: CreateCardSetupSession): Promise<CardSetupSession> {
    await this.requireCustomer(customerId);
    const url = new URL(cancelUrl);
    url.searchParams.set('sandbox', '1');
    return { id: newId('cs'), url: url.toString() };
  }

  async retrievePaymentMethod(paymentMethodId: string): Promise<CardPaymentMethod> {
    const row = await this.findPaymentMethod(paymentMethodId);
    if (!row) throw new PaymentGatewayError(`No such PaymentMethod: '${paymentMethodId}'`);
    return toCard(row);
  }

  async listPaymentMethods(customerId: string): Promise<CardPaymentMethod[]> {
    await this.requireCustomer(customerId);
    const rows: PaymentMethodRow[] = await this.dataSource.query(
      // Newest first, as the processor lists them.
      'SELECT * FROM sandbox_payment_methods WHERE customer_id = $1 ORDER BY created_at DESC, id',
      [customerId],
    );
    return rows.map(toCard);
  }

  async createPortalSession({ customerId }: CreatePortalSession): Promise<{ url: string }> {
    await this.requireCustomer(customerId);
    // The web app's billing page lists and adds cards itself; `sandbox=1` tells it no hosted portal stands behind.
    return { url: `${this.options.webUrl}/billing?sandbox=1` };
  }

  async createConnectedAccount({ vendorId, idempotencyKey }: CreateConnectedAccount): Promise<{ accountId: string }> {
    const row = await this.insertOnce<ConnectedAccountRow>('sandbox_connected_accounts', {
      id: newId('acct'),
      vendor_id: vendorId,
      idempotency_key: idempotencyKey,
      created_at: this.clock.now(),
    });
    if (row.vendor_id !== vendorId) throw keyReused(idempotencyKey);
    await this.scheduleSettlement(row);
    return { accountId: row.id };
  }

  async createAccountLink({ accountId, returnUrl }: CreateAccountLink): Promise<{ url: string }> {
    await this.requireAccount(accountId);
    // No hosted onboarding stands behind the sandbox: the link leads straight back, `sandbox=1` telling the web app so.
    const url = new URL(returnUrl);
    url.searchParams.set('sandbox', '1');
    return { url: url.toString() };
  }

  async listSucceededPaymentIntents(window: TimeWindow = {}): Promise<SucceededPaymentIntent[]> {
    const rows: Array<{ id: string; amount_cents: number; metadata: Record<string, string>; created_at: Date }> =
      await this.dataSource.query(
        `SELECT id, amount_cents, metadata, created_at FROM sandbox_payment_intents
          WHERE status = 'succeeded' AND ($1::timestamptz IS NULL OR created_at >= $1) AND ($2::timestamptz IS NULL OR created_at <= $2)
          ORDER BY created_at, id`,
        [window.from ?? null, window.to ?? null],
      );
    return rows.map((row) => ({
      id: row.id,
      amountCents: Number(row.amount_cents),
      metadata: row.metadata,
      createdAt: new Date(row.created_at).toISOString(),
    }));
  }

  async createLoginLink(accountId: string): Promise<{ url: string }> {
    const account = await this.requireAccount(accountId);
    // The processor's own refusal: there is no dashboard before onboarding is complete.
    if (!account.details_submitted)
      throw new PaymentGatewayError(`Cannot create a login link for an account that has not completed onboarding (${accountId})`);
    return { url: `${this.options.webUrl}/vendor/payouts?sandbox=1` };
  }

  /**
   * Settles an intent, once: the customer confirms a top-up or setup intent
   * with the card they typed (the 4242 Visa when the request named none), which
   * pays or is declined, a setup intent saving the card to its customer unless
   * declined; an off-session charge, decided when it was made, is announced.
   * The processor's event for it is stored by id. Answers that event
   * (`*.succeeded`, or `payment_intent.payment_failed` / `setup_intent.setup_failed`),
   * serialized and signed now, without delivering it: the settlement worker
   * POSTs it, and with auto settle off a test can post it to the webhook route
   * itself. Called again, it answers the same event, signed anew. A connected
   * account (`acct_...`) settles the same way: its onboarding completes,
   * announced by `account.updated`.
   */
  async settle(intentId: string): Promise<SignedSandboxEvent> {
    const event = await this.dataSource.transaction(async (db) => {
      if (intentId.startsWith('seti_')) {
        const setup = await this.settleSetupIntent(db, intentId);
        return setup.status === 'failed' ? setupIntentFailed(setup) : setupIntentSucceeded(setup);
      }
      if (intentId.startsWith('pi_')) {
        const payment = await this.settlePaymentIntent(db, intentId);
        return payment.status === 'failed' ? paymentIntentFailed(payment) : paymentIntentSucceeded(payment);
      }
      if (intentId.startsWith('acct_')) return accountUpdated(await this.completeOnboarding(db, intentId));
      throw new PaymentGatewayError(`No such intent: '${intentId}'`);
    });
    const payload = JSON.stringify(event);
    return { event, payload, signature: this.signature.sign(payload, this.clock.now()) };
  }

  private async settlePaymentIntent(db: EntityManager, id: string): Promise<PaymentIntentRow> {
    const [row]: PaymentIntentRow[] = await db.query('SELECT * FROM sandbox_payment_intents WHERE id = $1 FOR UPDATE', [id]);
    if (!row) throw new PaymentGatewayError(`No such payment_intent: '${id}'`);
    if (row.event_id) return row;
    if (row.status === 'failed' && !row.decline_code)
      throw new PaymentGatewayError(`The payment intent ${id} was refused, not declined by a card: no event announces it`);
    const now = this.clock.now();
    let settled: PaymentIntentRow = { ...row, event_id: newId('evt'), settled_at: now };
    if (row.status === 'requires_payment_method') {
      // A top-up: the customer confirms it with the card they typed, one used once and saved to nobody.
      const card = storedSandboxCard(row.card_number);
      const decline = card.charge === 'succeeds' ? null : card.charge;
      settled = {
        ...settled,
        ...declineColumns(decline),
        status: decline ? 'failed' : 'succeeded',
        payment_method_id: await this.insertCard(db, null, card, now),
      };
    }
    await db.query(
      `UPDATE sandbox_payment_intents
          SET status = $2, payment_method_id = $3, event_id = $4, settled_at = $5, failure_message = $6,
              failure_code = $7, decline_code = $8
        WHERE id = $1`,
      [
        id,
        settled.status,
        settled.payment_method_id,
        settled.event_id,
        settled.settled_at,
        settled.failure_message,
        settled.failure_code,
        settled.decline_code,
      ],
    );
    return settled;
  }

  private async settleSetupIntent(db: EntityManager, id: string): Promise<SetupIntentRow> {
    const [row]: SetupIntentRow[] = await db.query('SELECT * FROM sandbox_setup_intents WHERE id = $1 FOR UPDATE', [id]);
    if (!row) throw new PaymentGatewayError(`No such setupintent: '${id}'`);
    if (row.event_id) return row;
    const now = this.clock.now();
    const card = storedSandboxCard(row.card_number);
    // A card that declines cannot be saved, as with the processor: only 0341 saves and then declines its charges.
    const decline = card.setup === 'saved' ? null : card.setup;
    const settled: SetupIntentRow = {
      ...row,
      ...declineColumns(decline),
      status: decline ? 'failed' : 'succeeded',
      payment_method_id: decline ? null : await this.insertCard(db, row.customer_id, card, now),
      event_id: newId('evt'),
      settled_at: now,
    };
    await db.query(
      `UPDATE sandbox_setup_intents
          SET status = $2, payment_method_id = $3, event_id = $4, settled_at = $5, failure_message = $6,
              failure_code = $7, decline_code = $8
        WHERE id = $1`,
      [
        id,
        settled.status,
        settled.payment_method_id,
        settled.event_id,
        settled.settled_at,
        settled.failure_message,
        settled.failure_code,
        settled.decline_code,
      ],
    );
    return settled;
  }

  private async completeOnboarding(db: EntityManager, id: string): Promise<ConnectedAccountRow> {
    const [row]: ConnectedAccountRow[] = await db.query('SELECT * FROM sandbox_connected_accounts WHERE id = $1 FOR UPDATE', [
      id,
    ]);
    if (!row) throw new PaymentGatewayError(`No such account: '${id}'`);
    if (row.event_id) return row;
    const settled: ConnectedAccountRow = {
      ...row,
      charges_enabled: true,
      details_submitted: true,
      payouts_enabled: true,
      event_id: newId('evt'),
      settled_at: this.clock.now(),
    };
    await db.query(
      `UPDATE sandbox_connected_accounts
          SET charges_enabled = true, details_submitted = true, payouts_enabled = true, event_id = $2, settled_at = $3
        WHERE id = $1`,
      [id, settled.event_id, settled.settled_at],
    );
    return settled;
  }

  private async insertCard(db: EntityManager, customerId: string | null, card: SandboxTestCard, now: Date): Promise<string> {
    const id = newId('pm');
    await db.query(
      `INSERT INTO sandbox_payment_methods (id, customer_id, brand, last4, exp_month, exp_year, card_number, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        customerId,
        card.brand,
        card.last4,
        CARD_EXPIRY.month,
        now.getUTCFullYear() + CARD_EXPIRY.yearsValid,
        card.number,
        now,
      ],
    );
    return id;
  }

  private async insertPaymentIntent(
    request: CreatePaymentIntent,
    outcome: {
      status: PaymentIntent['status'];
      offSession: boolean;
      failureMessage?: string;
      /** A card's decline (an off-session charge of a declining card): announced, unlike a refusal. */
      decline?: CardDecline;
      paymentMethodId?: string;
      /** The card the customer typed, to confirm the intent with when it settles. */
      cardNumber?: string;
    },
  ): Promise<PaymentIntentRow> {
    const id = newId('pi');
    const row = await this.insertOnce<PaymentIntentRow>('sandbox_payment_intents', {
      id,
      client_secret: clientSecretOf(id),
      amount_cents: request.amountCents,
      currency: CURRENCY,
      customer_id: request.customerId ?? null,
      payment_method_id: outcome.paymentMethodId ?? null,
      description: request.description ?? null,
      metadata: JSON.stringify(request.metadata),
      status: outcome.status,
      failure_message: outcome.failureMessage ?? null,
      failure_code: outcome.decline?.code ?? null,
      decline_code: outcome.decline?.declineCode ?? null,
      card_number: outcome.cardNumber ?? null,
      off_session: outcome.offSession,
      idempotency_key: request.idempotencyKey,
      created_at: this.clock.now(),
    });
    const same =
      row.amount_cents === request.amountCents &&
      row.customer_id === (request.customerId ?? null) &&
      // A top-up's method is the card it was settled with, not a parameter.
      (!outcome.offSession || row.payment_method_id === outcome.paymentMethodId) &&
      row.description === (request.description ?? null) &&
      row.off_session === outcome.offSession &&
      sameMetadata(row.metadata, request.metadata);
    if (!same) throw keyReused(request.idempotencyKey);
    return row;
  }

  /**
   * Inserts unless a row with the same idempotency key exists, and answers
   * whichever row holds the key. Under a race the loser's INSERT waits for the
   * winner's commit and then does nothing, so one key makes one object.
   */
  private async insertOnce<Row>(table: Table, values: Record<string, unknown> & { idempotency_key: string }): Promise<Row> {
    const columns = Object.keys(values);
    const placeholders = columns.map((_, index) => `$${index + 1}`);
    const inserted: Row[] = await this.dataSource.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
      Object.values(values),
    );
    if (inserted.length) return inserted[0];
    const [existing]: Row[] = await this.dataSource.query(`SELECT * FROM ${table} WHERE idempotency_key = $1`, [
      values.idempotency_key,
    ]);
    return existing;
  }

  /**
   * Queues the settlement of an intent (or connected account) not yet settled;
   * the job id is the object's, so a retried create call queues nothing new. A
   * charge declined by its card is announced like any other; one refused (not
   * the customer's card) never is.
   */
  private async scheduleSettlement(row: {
    id: string;
    status?: string;
    decline_code?: string | null;
    event_id: string | null;
  }): Promise<void> {
    if (!this.options.autoSettle || row.event_id || (row.status === 'failed' && !row.decline_code)) return;
    try {
      await this.queues
        .queue<SandboxSettlementJob>(SANDBOX_SETTLEMENT_QUEUE)
        .add('settle', { intentId: row.id }, settlementJobOptions(row.id));
    } catch (error) {
      // The intent is stored: the caller's retry with the same key finds it and queues it again.
      throw new PaymentGatewayError(`The sandbox could not schedule the settlement of ${row.id}`, { cause: error });
    }
  }

  private async requireCustomer(customerId: string): Promise<void> {
    const [row] = await this.dataSource.query('SELECT 1 FROM sandbox_customers WHERE id = $1', [customerId]);
    if (!row) throw new PaymentGatewayError(`No such customer: '${customerId}'`);
  }

  private async requireAccount(accountId: string): Promise<ConnectedAccountRow> {
    const [row] = await this.dataSource.query('SELECT * FROM sandbox_connected_accounts WHERE id = $1', [accountId]);
    if (!row) throw new PaymentGatewayError(`No such account: '${accountId}'`);
    return row;
  }

  private async findPaymentMethod(paymentMethodId: string): Promise<PaymentMethodRow | undefined> {
    const [row] = await this.dataSource.query('SELECT * FROM sandbox_payment_methods WHERE id = $1', [paymentMethodId]);
    return row;
  }
}

/** The processor's id form: a type prefix and random base62. */
function newId(prefix: 'cus' | 'pi' | 'seti' | 'pm' | 'evt' | 'acct' | 'cs'): string {
  return `${prefix}_${randomAlphanumerics(ID_RANDOM_CHARS)}`;
}

/** The processor's client secret form, `<intent id>_secret_<random>`. */
function clientSecretOf(intentId: string): string {
  return `${intentId}_secret_${randomAlphanumerics(ID_RANDOM_CHARS)}`;
}

function randomAlphanumerics(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return text;
}

function checkAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > MAX_AMOUNT_CENTS) {
    throw new PaymentGatewayError(`Invalid amount: ${amountCents} (a whole number of cents from 1 to ${MAX_AMOUNT_CENTS})`);
  }
}

/** The processor's answer to a key replayed with other parameters: the first call's object is not silently returned. */
function keyReused(idempotencyKey: string): PaymentGatewayError {
  return new PaymentGatewayError(
    `Keys for idempotent requests can only be used with the same parameters they were first used with (key ${idempotencyKey})`,
  );
}

function sameMetadata(stored: Record<string, string>, requested: Record<string, string>): boolean {
  const keys = Object.keys(requested);
  return keys.length === Object.keys(stored).length && keys.every((key) => stored[key] === requested[key]);
}

function toPaymentIntent(row: PaymentIntentRow): PaymentIntent {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    amountCents: row.amount_cents,
    status: row.status,
    ...(row.failure_message ? { failureMessage: row.failure_message } : {}),
  };
}

/** The columns a settled intent keeps of its card's decline, or none. */
function declineColumns(decline: CardDecline | null) {
  return {
    failure_message: decline?.message ?? null,
    failure_code: decline?.code ?? null,
    decline_code: decline?.declineCode ?? null,
  };
}

function toCard(row: PaymentMethodRow): CardPaymentMethod {
  return { id: row.id, brand: row.brand, last4: row.last4, expMonth: row.exp_month, expYear: row.exp_year };
}
