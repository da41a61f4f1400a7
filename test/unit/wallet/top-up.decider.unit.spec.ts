import { topUpDecider, TopUpCommand } from '../../../src/modules/wallet/domain/top-up.decider';
import { givenWhenThen, t0 } from '../../support/decider';

const { fold, when, then } = givenWhenThen(topUpDecider);
const owner = { kind: 'user' as const, id: 'u1' };

const requested = (paymentIntentId: string | null, source: 'top_up' | 'auto_top_up' = 'top_up'): TopUpCommand => ({
  type: 'RequestTopUp',
  topUpId: 't1',
  owner,
  source,
  amountCents: 1_000,
  paymentIntentId,
  now: t0,
});
const succeed = (paymentIntentId: string, processorEventId: string): TopUpCommand => ({
  type: 'Succeed',
  paymentIntentId,
  processorEventId,
  now: t0,
});

describe('the top-up decider', () => {
  it('settles once: a second event for the same intent, even with another event id, decides nothing', () => {
    const history = then(then([], requested('pi_1')), succeed('pi_1', 'evt_1'));
    expect(fold(history).status).toBe('succeeded');
    expect(when(history, succeed('pi_1', 'evt_1'))).toEqual([]);
    expect(when(history, succeed('pi_1', 'evt_2'))).toEqual([]);
  });

  it('settles the amount our record holds', () => {
    const [settled] = when(then([], requested('pi_1')), succeed('pi_1', 'evt_1'));
    expect(settled.data).toMatchObject({ amountCents: 1_000, paymentIntentId: 'pi_1' });
  });

  it('does not settle an intent it did not record, nor a top-up never requested', () => {
    expect(when(then([], requested('pi_1')), succeed('pi_other', 'evt_1'))).toEqual([]);
    expect(when([], succeed('pi_1', 'evt_1'))).toEqual([]);
  });

  it('records an auto top-up before its charge, then the intent the charge made', () => {
    const history = then(then([], requested(null, 'auto_top_up')), { type: 'RecordCharge', paymentIntentId: 'pi_9', now: t0 });
    expect(fold(history)).toMatchObject({ status: 'requested', paymentIntentId: 'pi_9' });
    expect(when(history, { type: 'RecordCharge', paymentIntentId: 'pi_9', now: t0 })).toEqual([]);
    expect(when(history, succeed('pi_9', 'evt_1'))).toHaveLength(1);
  });

  it('a failure is not final: the customer may still pay the same intent', () => {
    const failed = then(then([], requested('pi_1')), {
      type: 'Fail',
      paymentIntentId: 'pi_1',
      processorEventId: 'evt_f',
      reason: 'card declined',
      now: t0,
    });
    expect(fold(failed).status).toBe('failed');
    expect(when(failed, succeed('pi_1', 'evt_2'))).toHaveLength(1);
  });

  it('requesting twice decides nothing the second time', () => {
    expect(when(then([], requested('pi_1')), requested('pi_1'))).toEqual([]);
  });
});
