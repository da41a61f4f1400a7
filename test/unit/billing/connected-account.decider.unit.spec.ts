import {
  connectedAccountDecider,
  ConnectedAccountCommand,
  DecidedConnectedAccountEvent,
} from '../../../src/modules/billing/domain/connected-account.decider';
import { BillingEvents } from '../../../src/modules/billing/events';
import { derivedId } from '../../../src/platform/ids';
import { at, givenWhenThen, t0 } from '../../support/decider';

const vendorId = '5b1f6a7e-1111-4000-8000-000000000001';
const { fold, when, then } = givenWhenThen(connectedAccountDecider);

const record = (accountId = 'acct_1'): ConnectedAccountCommand => ({ type: 'RecordAccount', vendorId, accountId, now: t0 });
const report = (
  processorEventId: string,
  reportedAt: Date,
  flags: { chargesEnabled: boolean; detailsSubmitted: boolean },
  accountId = 'acct_1',
): ConnectedAccountCommand => ({
  type: 'RecordAccountStatus',
  vendorId,
  accountId,
  ...flags,
  processorEventId,
  reportedAt,
  now: at(100),
});
const complete = { chargesEnabled: true, detailsSubmitted: true };
const started = { chargesEnabled: false, detailsSubmitted: true };

describe('a vendor’s connected account', () => {
  it('is recorded once: a second account is not', () => {
    const history = then([], record('acct_1'));
    expect(history).toEqual([
      { type: BillingEvents.ConnectedAccountCreated, data: { vendorId, accountId: 'acct_1', createdAt: t0.toISOString() } },
    ]);
    expect(when(history, record('acct_2'))).toEqual([]);
    expect(fold(history)).toEqual({ accountId: 'acct_1', chargesEnabled: false, detailsSubmitted: false, reportedAt: null });
  });

  it('records each report with an id derived from the processor event, complete only with charges and details', () => {
    const history = then(then([], record()), report('evt_1', at(1), started));
    expect(history[1]).toEqual<DecidedConnectedAccountEvent>({
      eventId: derivedId(BillingEvents.ConnectedAccountUpdated, 'evt_1'),
      type: BillingEvents.ConnectedAccountUpdated,
      data: {
        vendorId,
        accountId: 'acct_1',
        chargesEnabled: false,
        detailsSubmitted: true,
        onboardingComplete: false,
        processorEventId: 'evt_1',
        reportedAt: at(1).toISOString(),
        recordedAt: at(100).toISOString(),
      },
    });
    const done = then(history, report('evt_2', at(2), complete));
    expect(done[2].data).toMatchObject({ onboardingComplete: true });
    expect(fold(done)).toMatchObject({ chargesEnabled: true, detailsSubmitted: true, reportedAt: at(2).toISOString() });
  });

  it('ignores a report older than the one applied: the newest wins whatever the delivery order', () => {
    const history = then(then([], record()), report('evt_2', at(2), complete));
    expect(when(history, report('evt_1', at(1), started))).toEqual([]);
    expect(when(history, report('evt_3', at(3), started))).toHaveLength(1);
  });

  it('ignores a report about an account the vendor does not use', () => {
    expect(when(then([], record('acct_1')), report('evt_1', at(1), complete, 'acct_other'))).toEqual([]);
  });

  it('takes a report that arrives before its account is recorded, and then records no other account', () => {
    const history = then([], report('evt_1', at(1), complete, 'acct_1'));
    expect(fold(history)).toMatchObject({ accountId: 'acct_1', chargesEnabled: true, detailsSubmitted: true });
    expect(when(history, record('acct_1'))).toEqual([]);
  });
});
