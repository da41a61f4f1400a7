import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { defineEventCatalogue } from '../../../src/event-store/event-catalogue';
import { StreamAppend } from '../../../src/event-store/event-store';
import { decideOnStream, retryOnConflict } from '../../../src/event-store/fold-stream';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { PostgresSnapshotStore } from '../../../src/event-store/postgres/postgres-snapshot-store';
import { PolicyLedger } from '../../../src/modules/policies/commands/policy-ledger';
import { RecordPolicySpendHandler } from '../../../src/modules/policies/commands/record-policy-spend/record-policy-spend.handler';
import { RecordPolicySpendCommand } from '../../../src/modules/policies/commands/record-policy-spend/record-policy-spend.command';
import {
  PolicyApprovalRequiredError,
  policyStreamId,
  spendPolicyDecider,
  userPolicyOwner,
} from '../../../src/modules/policies/domain';
import { DEFAULT_POLICY_RULES, SpendPolicyRules } from '../../../src/modules/policies/domain/spend-policy';
import '../../../src/modules/policies/events';
import { ManualClock } from '../../../src/platform/clock/clock';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';

/** A stand-in for the purchase the other half of the atomic append records. */
defineEventCatalogue('test-purchases', { TestPurchaseMade: { schemaVersion: 1 } });

const now = new Date('2026-11-22T10:00:00.000Z');

describe('recording spend on a policy under concurrency', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let snapshots: PostgresSnapshotStore;
  let ledger: PolicyLedger;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 12);
    store = new PostgresEventStore(pool);
    snapshots = new PostgresSnapshotStore(pool);
    ledger = new PolicyLedger(store, snapshots);
  });

  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  async function newPolicy(rules: Partial<SpendPolicyRules>): Promise<string> {
    const policyId = randomUUID();
    await decideOnStream(store, policyStreamId(policyId), spendPolicyDecider, {
      type: 'CreatePolicy',
      policyId,
      owner: userPolicyOwner(randomUUID()),
      rules: { ...DEFAULT_POLICY_RULES, name: 'Concurrent', ...rules },
      now,
    });
    return policyId;
  }

  /** The purchase's part of the atomic append; its event id is fixed by the purchase, as a real one's would be. */
  const purchaseAppend = (purchaseId: string, priceCents: number): StreamAppend => ({
    streamId: `test-purchase-${purchaseId}`,
    events: [{ eventId: purchaseId, type: 'TestPurchaseMade', data: { purchaseId, priceCents } }],
    expected: 'no_stream',
  });

  /** What the purchase handler does: fold the policy, decide the spend, append it with the purchase at the revision read. */
  function purchase(policyId: string, priceCents: number, purchaseId = randomUUID()): Promise<string> {
    return retryOnConflict(async () => {
      const policy = await ledger.fold(policyId);
      const spend = ledger.decideSpend(policy, {
        purchaseId,
        priceCents,
        vendorSlug: 'acme',
        listingType: 'skill',
        approved: false,
        provisional: false,
        now,
      });
      await store.appendAtomically([purchaseAppend(purchaseId, priceCents), ...ledger.appendsOf(policy, spend)]);
      return purchaseId;
    });
  }

  const recordedSpend = async (policyId: string) =>
    (await store.readStream(policyStreamId(policyId)))
      .filter((e) => e.type === 'PolicySpendRecorded')
      .map((e) => e.data as { purchaseId: string; amountCents: number });

  it('never lets concurrent purchases jointly exceed the daily limit: the losers decide again and are refused', async () => {
    const policyId = await newPolicy({ dailyLimitCents: 1_000 });

    const results = await Promise.allSettled(Array.from({ length: 10 }, () => purchase(policyId, 300)));

    const made = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<string>).value);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(made).toHaveLength(3);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(PolicyApprovalRequiredError);
      expect((reason as PolicyApprovalRequiredError).evaluation.rule).toBe('dailyLimitCents');
    }
    const recorded = await recordedSpend(policyId);
    expect(recorded.map((r) => r.purchaseId).sort()).toEqual([...made].sort());
    expect(recorded.reduce((sum, r) => sum + r.amountCents, 0)).toBe(900);
    // The refused purchases left nothing behind either: the two streams commit together or not at all.
    for (const result of results) {
      if (result.status === 'rejected') continue;
      expect(await store.readStream(`test-purchase-${result.value}`)).toHaveLength(1);
    }
    expect((await ledger.fold(policyId)).state).toMatchObject({ spend: { day: '2026-11-22', dayCents: 900 } });
  });

  it('holds with uneven amounts too: what is recorded never exceeds the limit', async () => {
    const policyId = await newPolicy({ dailyLimitCents: 1_000 });
    const amounts = [450, 120, 380, 90, 600, 250, 310, 75, 500, 199];

    const results = await Promise.allSettled(amounts.map((amount) => purchase(policyId, amount)));

    const total = (await recordedSpend(policyId)).reduce((sum, r) => sum + r.amountCents, 0);
    expect(total).toBeLessThanOrEqual(1_000);
    // Each refusal was decided on a total no larger than the final one, so what it asked for does not fit in what is left.
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') return;
      expect(result.reason).toBeInstanceOf(PolicyApprovalRequiredError);
      expect(amounts[i]).toBeGreaterThan(1_000 - total);
    });
  });

  it('records a retried purchase once: the same atomic append again is a no-op', async () => {
    const policyId = await newPolicy({ dailyLimitCents: 1_000 });
    const purchaseId = randomUUID();
    const policy = await ledger.fold(policyId);
    const spend = ledger.decideSpend(policy, {
      purchaseId,
      priceCents: 400,
      vendorSlug: 'acme',
      listingType: 'skill',
      approved: false,
      provisional: false,
      now,
    });
    const appends = [purchaseAppend(purchaseId, 400), ...ledger.appendsOf(policy, spend)];
    await store.appendAtomically(appends);
    await store.appendAtomically(appends);
    expect(await recordedSpend(policyId)).toEqual([expect.objectContaining({ purchaseId, amountCents: 400 })]);
  });

  it('records spend on its own through RecordPolicySpendCommand, deciding again on conflict, within the monthly limit', async () => {
    const policyId = await newPolicy({ monthlyLimitCents: 2_000 });
    const handler = new RecordPolicySpendHandler(store, snapshots, new ManualClock(now));
    const record = () =>
      handler.execute(
        new RecordPolicySpendCommand(policyId, {
          purchaseId: randomUUID(),
          priceCents: 700,
          vendorSlug: 'acme',
          listingType: 'skill',
          approved: false,
          provisional: false,
        }),
      );

    const results = await Promise.allSettled(Array.from({ length: 8 }, record));

    const made = results.filter((r) => r.status === 'fulfilled');
    expect(made).toHaveLength(2);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual(
      Array(6).fill(expect.any(PolicyApprovalRequiredError)),
    );
    const spentThisMonth = made.map((r) => (r as PromiseFulfilledResult<{ spentThisMonthCents: number }>).value);
    expect(spentThisMonth.map((s) => s.spentThisMonthCents).sort((a, b) => a - b)).toEqual([700, 1_400]);
  });

  it('folds a long policy from its snapshot, with the same totals as a whole fold', async () => {
    const policyId = await newPolicy({});
    for (let i = 0; i < 120; i++) await purchase(policyId, 5);

    const snapshot = await snapshots.load(policyStreamId(policyId));
    expect(snapshot).toMatchObject({ version: spendPolicyDecider.snapshot!.version });
    // Saved once a fold had read `every` (100) events past none: the policy's creation and 99 spends at least.
    expect(snapshot!.revision).toBeGreaterThanOrEqual(99);
    const fromSnapshot = await ledger.fold(policyId);
    const whole = (await store.readStream(policyStreamId(policyId))).reduce(
      (state, e) => spendPolicyDecider.evolve(state, e as never),
      spendPolicyDecider.initialState,
    );
    expect(fromSnapshot.state).toEqual(whole);
    expect(fromSnapshot.state).toMatchObject({ spend: { dayCents: 600, monthCents: 600 } });
  });
});
