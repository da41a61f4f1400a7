import { FailTopUpCommand } from '../../../src/modules/wallet/commands/fail-top-up/fail-top-up.command';
import { SettleTopUpCommand } from '../../../src/modules/wallet/commands/settle-top-up/settle-top-up.command';
import { RecordAccountStatusCommand } from '../../../src/modules/billing/commands/record-account-status/record-account-status.command';
import { RemovePaymentMethodCommand } from '../../../src/modules/billing/commands/remove-payment-method/remove-payment-method.command';
import { SavePaymentMethodCommand } from '../../../src/modules/billing/commands/save-payment-method/save-payment-method.command';
import { BillingEvents } from '../../../src/modules/billing/events';
import { WalletEvents } from '../../../src/modules/wallet/events';
import { AUTO_TOP_UP_QUEUE } from '../../../src/sagas/auto-top-up/auto-top-up.process';
import { AutoTopUpSaga } from '../../../src/sagas/auto-top-up/auto-top-up.saga';
import { ConnectedAccountSaga } from '../../../src/sagas/connected-account/connected-account.saga';
import { SavedPaymentMethodSaga } from '../../../src/sagas/saved-payment-method/saved-payment-method.saga';
import { TopUpSaga } from '../../../src/sagas/top-up/top-up.saga';
import { recorded, whenSaga } from '../../support/saga';

const topUpId = '2b1f6a7e-1111-4000-8000-000000000001';

const paymentEvent = (eventType: string, extra: Record<string, unknown> = {}) =>
  recorded(BillingEvents.PaymentEventReceived, {
    processorEventId: 'evt_1',
    eventType,
    objectId: 'pi_1',
    amountCents: 1_500,
    customerId: null,
    paymentMethodId: null,
    metadata: { topUpId },
    failureMessage: null,
    occurredAt: '2026-11-22T10:00:00.000Z',
    ...extra,
  });

describe('money sagas', () => {
  const topUps = whenSaga(new TopUpSaga(null as never));

  it('a paid intent settles the top-up its metadata names', () => {
    expect(topUps.receives(paymentEvent('payment_intent.succeeded')).commands).toEqual([
      new SettleTopUpCommand('evt_1', 'pi_1', topUpId, 1_500),
    ]);
  });

  it('a paid intent with no top-up id is still passed on, to be recorded as unmatched', () => {
    expect(topUps.receives(paymentEvent('payment_intent.succeeded', { metadata: {} })).commands).toEqual([
      new SettleTopUpCommand('evt_1', 'pi_1', null, 1_500),
    ]);
  });

  it('a failed intent fails its top-up with the processor’s reason', () => {
    expect(
      topUps.receives(paymentEvent('payment_intent.payment_failed', { failureMessage: 'Your card was declined.' })).commands,
    ).toEqual([new FailTopUpCommand(topUpId, 'pi_1', 'evt_1', 'Your card was declined.')]);
  });

  it('ignores setup intents; the saved-payment-method saga saves their card for the owner in the metadata', () => {
    const setup = paymentEvent('setup_intent.succeeded', {
      objectId: 'seti_1',
      amountCents: null,
      paymentMethodId: 'pm_1',
      metadata: { ownerKind: 'user', ownerId: 'u1' },
    });
    expect(topUps.receives(setup).commands).toEqual([]);
    expect(whenSaga(new SavedPaymentMethodSaga(null as never)).receives(setup).commands).toEqual([
      new SavePaymentMethodCommand({ kind: 'user', id: 'u1' }, 'seti_1', 'pm_1'),
    ]);
    const foreign = paymentEvent('setup_intent.succeeded', { objectId: 'seti_2', paymentMethodId: 'pm_2', metadata: {} });
    expect(whenSaga(new SavedPaymentMethodSaga(null as never)).receives(foreign).commands).toEqual([]);
  });

  it('an auto top-up request queues one charge job whose id is the event id', () => {
    const event = recorded(
      WalletEvents.AutoTopUpRequested,
      { topUpId, amountCents: 2_500, balanceCents: 300, requestedAt: '2026-11-22T10:00:00.000Z' },
      { streamId: 'wallet-user-u1', eventId: '2b1f6a7e-2222-4000-8000-000000000002' },
    );
    const { commands, jobs } = whenSaga(new AutoTopUpSaga(null as never, null as never)).receives(event);
    expect(commands).toEqual([]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      queue: AUTO_TOP_UP_QUEUE,
      jobId: event.eventId,
      data: { topUpId, owner: { kind: 'user', id: 'u1' }, amountCents: 2_500, causationId: event.eventId },
    });
  });

  it('an account.updated records the onboarding flags for the vendor its metadata names, and nothing else does', () => {
    const vendorId = '2b1f6a7e-3333-4000-8000-000000000003';
    const accounts = whenSaga(new ConnectedAccountSaga(null as never));
    const account = { chargesEnabled: true, detailsSubmitted: true, payoutsEnabled: true };
    const updated = paymentEvent('account.updated', { objectId: 'acct_1', amountCents: null, metadata: { vendorId }, account });
    expect(accounts.receives(updated).commands).toEqual([
      new RecordAccountStatusCommand(vendorId, 'acct_1', true, true, 'evt_1', '2026-11-22T10:00:00.000Z'),
    ]);
    expect(topUps.receives(updated).commands).toEqual([]);
    const noVendor = paymentEvent('account.updated', { objectId: 'acct_2', metadata: {}, account });
    const notOurs = paymentEvent('account.updated', {
      objectId: 'acct_3',
      metadata: { vendorId: 'x' },
      account,
    });
    expect(accounts.receives(noVendor).commands).toEqual([]);
    expect(accounts.receives(notOurs).commands).toEqual([]);
    expect(accounts.receives(paymentEvent('payment_intent.succeeded')).commands).toEqual([]);
  });

  it('treats a canceled intent as a failed one, and removes a detached card', () => {
    expect(
      topUps.receives(paymentEvent('payment_intent.canceled', { failureMessage: 'The payment was canceled' })).commands,
    ).toEqual([new FailTopUpCommand(topUpId, 'pi_1', 'evt_1', 'The payment was canceled')]);
    const detached = paymentEvent('payment_method.detached', {
      objectId: 'pm_9',
      paymentMethodId: 'pm_9',
      amountCents: null,
      metadata: {},
    });
    expect(whenSaga(new SavedPaymentMethodSaga(null as never)).receives(detached).commands).toEqual([
      new RemovePaymentMethodCommand('pm_9'),
    ]);
  });
});
