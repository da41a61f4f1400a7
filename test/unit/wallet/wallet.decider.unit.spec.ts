import fc from 'fast-check';
import { DomainError } from '../../../src/platform/errors/domain-error';
import {
  autoTopUpIdFor,
  DecidedWalletEvent,
  InsufficientBalanceError,
  walletDecider,
  WalletCommand,
} from '../../../src/modules/wallet/domain/wallet.decider';
import { errorOf, givenWhenThen, t0 } from '../../support/decider';

const { fold, when, then } = givenWhenThen(walletDecider);

const topUp = (topUpId: string, amountCents: number): WalletCommand => ({
  type: 'CreditTopUp',
  topUpId,
  paymentIntentId: `pi_${topUpId}`,
  source: 'top_up',
  amountCents,
  now: t0,
});
const debit = (debitId: string, amountCents: number): WalletCommand => ({
  type: 'Debit',
  debitId,
  amountCents,
  reason: 'purchase',
  description: 'A package',
  reference: { purchaseId: debitId },
  now: t0,
});
const enableAutoTopUp: WalletCommand = {
  type: 'ConfigureAutoTopUp',
  enabled: true,
  thresholdCents: 1_000,
  amountCents: 2_500,
  hasPaymentMethod: true,
  now: t0,
};

describe('the wallet decider', () => {
  it('credits a top-up and records the balance it leaves', () => {
    const [credited] = when([], topUp('a', 1_500));
    expect(credited).toMatchObject({ type: 'WalletToppedUp', data: { amountCents: 1_500, balanceAfterCents: 1_500 } });
  });

  it('debits with a negative amount and the balance after', () => {
    const history = then([], topUp('a', 1_500));
    const [debited] = when(history, debit('p1', 400));
    expect(debited).toMatchObject({ type: 'WalletDebited', data: { amountCents: -400, balanceAfterCents: 1_100 } });
  });

  it('never goes below zero: a debit above the balance is 402 insufficient_balance with both amounts', () => {
    const history = then([], topUp('a', 500));
    const error = errorOf(() => when(history, debit('p1', 501)));
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error.code).toBe('payment_required');
    expect(error.details).toEqual({ status: 'insufficient_balance', balanceCents: 500, requiredCents: 501 });
  });

  it('refuses amounts that are not positive integers of cents', () => {
    for (const amount of [0, -1, 1.5, Number.NaN, 2 ** 60])
      expect(errorOf(() => when([], topUp('a', amount))).code).toBe('invalid');
  });

  it('derives every money event id from its cause, so a retried cause re-appends the same id', () => {
    const history = then([], topUp('a', 1_000));
    expect(when(history, debit('p1', 100))[0].eventId).toBe(when(history, debit('p1', 100))[0].eventId);
    expect(when([], topUp('a', 1_000))[0].eventId).toBe(history[0].eventId);
  });

  describe('auto top-up', () => {
    it('cannot be enabled without a saved payment method (422 saying so)', () => {
      const error = errorOf(() => when([], { ...enableAutoTopUp, hasPaymentMethod: false }));
      expect(error.code).toBe('unprocessable');
      expect(error.message).toMatch(/payment method/);
    });

    it('is asked for once when a debit leaves the balance below the threshold, not again while in flight', () => {
      let history = then(then([], enableAutoTopUp), topUp('a', 2_000));
      const first = when(history, debit('p1', 1_500));
      expect(first.map((e) => e.type)).toEqual(['WalletDebited', 'AutoTopUpRequested']);
      expect(first[1].data).toMatchObject({ topUpId: autoTopUpIdFor('p1'), amountCents: 2_500, balanceCents: 500 });
      history = [...history, ...first];
      expect(when(history, debit('p2', 100)).map((e) => e.type)).toEqual(['WalletDebited']);
    });

    it('may be asked for again after the one in flight is credited or fails', () => {
      let history = then(then(then([], enableAutoTopUp), topUp('a', 2_000)), debit('p1', 1_500));
      const topUpId = autoTopUpIdFor('p1');
      const afterFailure = then(history, { type: 'FailAutoTopUp', topUpId, reason: 'declined', now: t0 });
      expect(when(afterFailure, debit('p2', 100)).map((e) => e.type)).toEqual(['WalletDebited', 'AutoTopUpRequested']);
      history = then(history, { ...topUp(topUpId, 2_500), source: 'auto_top_up' } as WalletCommand);
      expect(fold(history).autoTopUpInFlight).toBeNull();
      expect(when(history, debit('p3', 2_100)).map((e) => e.type)).toEqual(['WalletDebited', 'AutoTopUpRequested']);
    });

    it('keeps settings not named, and appends nothing when nothing changes', () => {
      const history = then([], enableAutoTopUp);
      expect(when(history, { type: 'ConfigureAutoTopUp', thresholdCents: 1_000, hasPaymentMethod: true, now: t0 })).toEqual([]);
      const [changed] = when(history, { type: 'ConfigureAutoTopUp', amountCents: 5_000, hasPaymentMethod: true, now: t0 });
      expect(changed.data).toMatchObject({ enabled: true, thresholdCents: 1_000, amountCents: 5_000 });
      expect(() => when([], { type: 'ConfigureAutoTopUp', amountCents: 100, hasPaymentMethod: true, now: t0 })).toThrow(
        DomainError,
      );
    });
  });

  it('folds to the balance of the last event, whatever the order of credits and debits', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 10_000 })), { maxLength: 60 }), (moves) => {
        let history: DecidedWalletEvent[] = [];
        let expected = 0;
        moves.forEach(([credit, amount], i) => {
          try {
            history = then(history, credit ? topUp(`t${i}`, amount) : debit(`d${i}`, amount));
            expected += credit ? amount : -amount;
          } catch (error) {
            expect(error).toBeInstanceOf(InsufficientBalanceError);
          }
          expect(fold(history).balanceCents).toBe(expected);
          expect(expected).toBeGreaterThanOrEqual(0);
        });
      }),
    );
  });

  it('gives the same state from any snapshot (its JSON) plus the tail as from the whole history', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('credit', 'debit', 'configure', 'fail'), fc.integer({ min: 1, max: 5_000 })), {
          maxLength: 40,
        }),
        fc.nat(),
        (moves, cut) => {
          let history: DecidedWalletEvent[] = [];
          moves.forEach(([move, amount], i) => {
            const command: WalletCommand =
              move === 'credit'
                ? topUp(`t${i}`, amount)
                : move === 'debit'
                  ? debit(`d${i}`, amount)
                  : move === 'configure'
                    ? { ...enableAutoTopUp, thresholdCents: amount }
                    : { type: 'FailAutoTopUp', topUpId: autoTopUpIdFor(`d${i - 1}`), reason: 'declined', now: t0 };
            try {
              history = then(history, command);
            } catch (error) {
              expect(error).toBeInstanceOf(DomainError);
            }
          });
          const at = history.length === 0 ? 0 : cut % (history.length + 1);
          const snapshot = JSON.parse(JSON.stringify(fold(history.slice(0, at))));
          expect(history.slice(at).reduce(walletDecider.evolve, snapshot)).toEqual(fold(history));
        },
      ),
    );
  });
});
