import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CommandBus, ICommand } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { EventStore } from '../../src/event-store/event-store';
import { runLedgerCli } from '../../src/ledger/ledger-cli';
import { verifyMoneyStreams } from '../../src/ledger/verify';
import { IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../src/modules/auth/domain/api-token';
import { SandboxPaymentGateway } from '../../src/modules/billing/adapters/sandbox-payment-gateway';
import { PaymentGateway } from '../../src/modules/billing/domain/payment-gateway';
import { RecordTopUpChargeCommand } from '../../src/modules/wallet/commands/record-top-up-charge/record-top-up-charge.command';
import { userWallet } from '../../src/modules/wallet/domain/wallet-owner';
import { WalletEvents } from '../../src/modules/wallet/events';
import { Queues } from '../../src/platform/queue/queues';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { AutoTopUpProcess } from '../../src/sagas/auto-top-up/auto-top-up.process';
import { Caller, callerFor, eventually, newCaller, registerUser } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { createOrg, fundOrgWallet } from '../support/orgs';
import { fundWallet, saveSandboxCard, settleSandboxIntent } from '../support/wallet';

const root = path.resolve(__dirname, '../..');

describe('npm run ledger: replay, reconcile and verify from the log', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;
  let alice: Caller;
  const aliceEmail = `alice-${randomUUID().slice(0, 8)}@example.com`;
  let bob: Caller;
  const cardOrder: { orderId?: string } = {};

  beforeAll(async () => {
    app = await startTestApp();
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`ledger-${randomUUID().slice(0, 8)}`, { displayName: 'Ledger Shop' });
    const aliceId = await registerUser(app, aliceEmail, 'Alice Auditor');
    const { token } = await app.server.app.get(CommandBus).execute(new IssueTokenCommand(aliceId, 'test', [...SCOPES], 'admin'));
    alice = callerFor(app, aliceId, token);
    await eventually(async () => (await alice.call('GET', '/v1/wallet')).status === 200);
  });
  afterAll(() => app?.close());

  const ledger = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runLedgerCli(
      args,
      loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent', PAY_SANDBOX_AUTO_SETTLE: 'false' }),
      {
        print: (text) => lines.push(text),
      },
    );
    const output = lines.join('\n');
    return { code, output, json: () => JSON.parse(output) };
  };
  const listing = (priceCents: number) =>
    seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, title: 'Kit', priceCents });
  const db = () => app.server.app.get(DataSource);
  /** Every projection (the wallets', the orders', the journal) has applied the whole log. */
  const caughtUp = async () => {
    const head = await store().headPosition();
    expect(await app.server.app.get(ProjectionWaiter).waitFor(head!, undefined, 20_000)).toBe(true);
  };
  const store = () => app.server.app.get(EventStore);

  it('seeds a history: top-ups, a wallet and a card purchase, a crash-interrupted auto top-up, a deleted buyer', async () => {
    await fundWallet(app, alice, 5000);
    const wallet = await listing(1200);
    expect((await alice.call('POST', '/v1/purchases', { listingId: wallet.listingId, useWallet: true })).status).toBe(200);

    await saveSandboxCard(app, alice);
    const card = await listing(900);
    const bought = await json(await alice.call('POST', '/v1/purchases', { listingId: card.listingId }));
    cardOrder.orderId = bought.orderId;
    const [intent] = await db().query('SELECT id FROM sandbox_payment_intents WHERE idempotency_key = $1', [bought.orderId]);
    await settleSandboxIntent(app, intent.id);
    await eventually(async () => (await alice.call('GET', `/v1/entitlements/${card.listingId}`)).status === 200);
    expect((await alice.call('GET', `/v1/releases/${card.releaseId}/download`)).status).toBeLessThan(500);

    // The auto top-up process dies after charging, and runs again.
    const bus = app.server.app.get(CommandBus);
    const dying = {
      execute: (command: ICommand) => {
        if (command instanceof RecordTopUpChargeCommand) throw new Error('killed after the charge');
        return bus.execute(command);
      },
    } as unknown as CommandBus;
    const config = loadConfig({ NODE_ENV: 'test', RUN_PROCESSORS: 'false' });
    const job = {
      topUpId: randomUUID(),
      owner: userWallet(alice.userId),
      amountCents: 2500,
      causationId: randomUUID(),
      correlationId: randomUUID(),
    };
    await expect(new AutoTopUpProcess(dying, app.server.app.get(Queues), config).run(job)).rejects.toThrow('killed');
    await new AutoTopUpProcess(bus, app.server.app.get(Queues), config).run(job);
    const [auto] = await db().query('SELECT id FROM sandbox_payment_intents WHERE idempotency_key = $1', [job.topUpId]);
    await settleSandboxIntent(app, auto.id);
    await eventually(async () => (await json(await alice.call('GET', '/v1/wallet'))).balanceCents === 5000 - 1200 + 2500);

    bob = await newCaller(app);
    await fundWallet(app, bob, 3000);
    expect((await bob.call('DELETE', '/v1/users/me')).status).toBe(200);
    await caughtUp();
  });

  it('replays a wallet by email with running balances, equal to the read model to the cent at several --as-of times', async () => {
    const now = await ledger('wallet', '--user', aliceEmail, '--json');
    expect(now.code).toBe(0);
    const statement = now.json();
    expect(statement).toMatchObject({
      owner: { kind: 'user', id: alice.userId, email: aliceEmail, name: 'Alice Auditor', deleted: false },
      balanceCents: 6300,
      brokenBalances: [],
      readModel: { agrees: true, balanceCents: 6300 },
      consistent: true,
    });
    expect(statement.transactions.map((t: { type: string; amountCents: number }) => [t.type, t.amountCents])).toEqual([
      ['top_up', 5000],
      ['purchase', -1200],
      ['auto_top_up', 2500],
    ]);
    const { transactions: modelled } = await json(await alice.call('GET', '/v1/wallet/transactions'));
    for (const [i, t] of statement.transactions.entries()) {
      const asOf = await ledger('wallet', '--user', alice.userId, '--as-of', t.at, '--json');
      expect(asOf.json().balanceCents).toBe(t.replayedBalanceCents);
      const row = modelled.find((m: { amountCents: number; balanceAfterCents: number }) => m.amountCents === t.amountCents);
      expect(row.balanceAfterCents).toBe(asOf.json().balanceCents);
      expect(asOf.json().transactions).toHaveLength(i + 1);
    }
    expect(
      (await ledger('wallet', '--user', alice.userId, '--as-of', '2000-01-01T00:00:00Z', '--json')).json().balanceCents,
    ).toBe(0);

    const text = await ledger('wallet', '--user', aliceEmail);
    expect(text.output).toMatch(/balance: 63\.00 \(6300 cents\)/);
    expect(text.output).toMatch(/the read model agrees/);
    const csv = await ledger('wallet', '--user', aliceEmail, '--csv');
    expect(csv.output.split('\n')[0]).toBe(
      'at,type,description,amountCents,balanceAfterCents,replayedBalanceCents,revision,eventId',
    );
    expect(csv.output.split('\n')).toHaveLength(4);
  });

  it("shows a deleted user's id with null personal fields, never the erased email or name", async () => {
    const replay = await ledger('wallet', '--user', bob.userId, '--json');
    expect(replay.json().owner).toEqual({ kind: 'user', id: bob.userId, email: null, name: null, deleted: true });
    expect(replay.json().balanceCents).toBe(3000);
    expect(replay.output).not.toMatch(/@example\.com/);
  });

  it("lists the buyer's purchases, payments, entitlements and downloads as recorded", async () => {
    const history = await ledger('purchases', '--user', aliceEmail, '--json');
    expect(history.code).toBe(0);
    const types = history.json().records.map((r: { type: string }) => r.type);
    expect(types).toEqual(expect.arrayContaining(['PurchaseMade', 'EntitlementGranted', 'OrderPaid']));
    expect(types.filter((t: string) => t === 'PurchaseMade')).toHaveLength(2);
    const one = await ledger(
      'purchases',
      '--user',
      alice.userId,
      '--csv',
      '--listing',
      history.json().records.find((r: { orderId: string }) => r.orderId === cardOrder.orderId).listingId,
    );
    expect(
      one.output
        .split('\n')
        .slice(1)
        .every((line) => line.includes(cardOrder.orderId!) || line.includes('InstallRecorded') || line.includes('Entitlement')),
    ).toBe(true);
  });

  it('posts the journal projection as balanced entries: 5000 + 2500 + 3000 top-ups and the 900 card sale at the processor', async () => {
    const unbalanced = await db().query('SELECT event_id FROM journal_lines GROUP BY event_id HAVING sum(amount_cents) <> 0');
    expect(unbalanced).toEqual([]);
    const balances = await db().query('SELECT account, sum(amount_cents)::int AS cents FROM journal_lines GROUP BY account');
    const of = (account: string) => balances.find((b: { account: string }) => b.account === account)?.cents;
    expect(of('processor-clearing')).toBe(5000 + 2500 + 3000 + 900);
    expect(of(`wallet:user:${alice.userId}`)).toBe(-6300);
    expect(of('wallet-purchases-clearing')).toBe(0);
    expect(of('platform-fee-revenue') + of(`vendor-payable:${vendor.id}`)).toBe(-(1200 + 900));
    expect(balances.reduce((sum: number, b: { cents: number }) => sum + b.cents, 0)).toBe(0);
  });

  it('reconciles clean, and verifies every money stream', async () => {
    const report = await ledger('reconcile', '--json');
    expect(report.json().findings).toEqual([]);
    expect(report.code).toBe(0);
    expect(report.json()).toMatchObject({ trialBalanceCents: 0, unexplained: 0 });
    const verify = await ledger('verify');
    expect(verify.output).toMatch(/every link holds/);
    expect(verify.code).toBe(0);
  });

  it('replays an org wallet by slug or id, and reconciles it with the rest', async () => {
    const org = await createOrg(alice);
    await fundOrgWallet(app, alice, org.slug, 1500);
    await caughtUp();
    const bySlug = await ledger('wallet', '--org', org.slug, '--json');
    expect(bySlug.code).toBe(0);
    expect(bySlug.json()).toMatchObject({
      owner: { kind: 'org', id: org.id },
      balanceCents: 1500,
      readModel: { agrees: true, balanceCents: 1500 },
      consistent: true,
    });
    expect((await ledger('wallet', '--org', org.id, '--json')).json().balanceCents).toBe(1500);
    expect((await ledger('wallet', '--org', 'no-such-team')).code).toBe(2);
    const report = await ledger('reconcile', '--json');
    expect(report.json().findings).toEqual([]);
    expect(report.code).toBe(0);
  });

  it('names each injected discrepancy: a credit never paid, a hand-edited read model, a double credit, a payment never credited', async () => {
    const walletStream = `wallet-user-${alice.userId}`;
    const appendCredit = async (topUpId: string, paymentIntentId: string, amountCents: number) => {
      const events = await store().readStream(walletStream);
      const balance = Number(events.filter((e) => 'balanceAfterCents' in e.data).at(-1)!.data.balanceAfterCents);
      await store().append(
        walletStream,
        [
          {
            type: WalletEvents.WalletToppedUp,
            data: {
              topUpId,
              paymentIntentId,
              source: 'top_up',
              amountCents,
              balanceAfterCents: balance + amountCents,
              toppedUpAt: new Date().toISOString(),
            },
          },
        ],
        events.length - 1,
      );
    };
    // 1. a credit whose intent the processor never paid
    await appendCredit(randomUUID(), 'pi_neverPaid', 700);
    // 2. a duplicated credit of a real top-up
    const firstCredit = (await store().readStream(walletStream)).find((e) => e.type === WalletEvents.WalletToppedUp)!;
    await appendCredit(String(firstCredit.data.topUpId), String(firstCredit.data.paymentIntentId), 5000);
    await eventually(async () => (await json(await alice.call('GET', '/v1/wallet'))).balanceCents === 6300 + 700 + 5000);
    // 3. a read model row changed by hand
    await db().query("UPDATE wallets SET balance_cents = balance_cents + 1 WHERE owner_kind = 'user' AND owner_id = $1", [
      bob.userId,
    ]);
    // 4. a top-up the processor took but nobody credited (the webhook never came)
    const topUp = await json(await alice.call('POST', '/v1/wallet/top-up', { amountCents: 1500 }));
    const lostIntent = topUp.clientSecret.split('_secret_')[0];
    await (app.server.app.get(PaymentGateway) as SandboxPaymentGateway).settle(lostIntent);
    await caughtUp();

    const report = await ledger('reconcile', '--json');
    expect(report.code).toBe(1);
    const named = report.json().findings.map((f: { kind: string; subject: string }) => `${f.kind} ${f.subject}`);
    expect(named).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^credit_without_payment event /),
        `double_credit intent ${firstCredit.data.paymentIntentId}`,
        `read_model_balance_differs wallet-user-${bob.userId}`,
        `intent_paid_not_credited intent ${lostIntent}`,
      ]),
    );
    expect(report.json().findings.find((f: { kind: string }) => f.kind === 'credit_without_payment').detail).toMatch(
      /pi_neverPaid/,
    );
    expect(report.json().trialBalanceCents).toBe(0);
    const text = await ledger('reconcile');
    expect(text.output).toMatch(/UNEXPLAINED processor\/intent_paid_not_credited/);
  });

  it('detects an event edited behind the service, naming its stream and revision', async () => {
    const walletStream = `wallet-user-${bob.userId}`;
    await db().query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    try {
      await db().query(
        `UPDATE events SET data = jsonb_set(data, '{amountCents}', '999999') WHERE stream_id = $1 AND type = 'WalletToppedUp'`,
        [walletStream],
      );
    } finally {
      await db().query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    }
    const [{ revision }] = await db().query(`SELECT revision FROM events WHERE stream_id = $1 AND type = 'WalletToppedUp'`, [
      walletStream,
    ]);
    const verify = await ledger('verify', '--json');
    expect(verify.code).toBe(1);
    expect(verify.json().broken).toEqual([
      { streamId: walletStream, revision: Number(revision), kind: 'edited', detail: expect.stringMatching(/WalletToppedUp/) },
    ]);
    const wallet = await ledger('wallet', '--user', bob.userId, '--json');
    expect(wallet.code).toBe(1);
    expect(wallet.json().brokenBalances).toHaveLength(1);
  });

  it('detects an event deleted and one inserted with the triggers off', async () => {
    const streamId = `order-${cardOrder.orderId}`;
    // One connection for the whole edit: the setting is the session's, and a pooled query may run on another.
    const session = db().createQueryRunner();
    await session.connect();
    await session.query('SET session_replication_role = replica');
    try {
      await session.query(`DELETE FROM events WHERE stream_id = $1 AND revision = 1`, [streamId]);
      await session.query(
        `INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
         VALUES (gen_random_uuid(), $1, 0, 'WalletCredited', '{"amountCents": 1}', '{"schemaVersion": 1, "occurredAt": "2026-01-01T00:00:00Z"}')`,
        [`wallet-org-${randomUUID()}`],
      );
    } finally {
      await session.query('SET session_replication_role = DEFAULT');
      await session.release();
    }
    const verify = await ledger('verify', '--json');
    expect(verify.code).toBe(1);
    const kinds = verify
      .json()
      .broken.map((b: { streamId: string; revision: number; kind: string }) => [b.streamId.split('-')[0], b.revision, b.kind]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['order', 1, 'deleted'],
        ['wallet', 0, 'inserted'],
      ]),
    );
  });

  it('runs as a command: usage errors exit 2, and in a pipe it prints no progress bar', async () => {
    expect((await ledger('wallet')).code).toBe(2);
    expect((await ledger('wallet', '--user', alice.userId, '--as-of', 'yesterday')).code).toBe(2);
    expect((await ledger('nonsense')).code).toBe(2);
    const run = promisify(execFile);
    const result = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'src/ledger/main.ts', 'wallet', '--user', aliceEmail, '--csv'],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: app.db.url, LOG_LEVEL: 'silent', PAY_SANDBOX_AUTO_SETTLE: 'false' },
      },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')[0]).toMatch(/^at,type,/);
  }, 120_000);
});
