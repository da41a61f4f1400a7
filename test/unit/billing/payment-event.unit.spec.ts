import { readPaymentEvent } from '../../../src/modules/billing/domain/payment-event';
import { DomainError } from '../../../src/platform/errors/domain-error';

const event = (type: string, object: Record<string, unknown>) => ({
  id: 'evt_123',
  object: 'event',
  type,
  created: 1_790_000_000,
  data: { object },
});

describe('reading a processor event', () => {
  it('keeps only the fields we act on', () => {
    const read = readPaymentEvent(
      event('payment_intent.succeeded', {
        id: 'pi_1',
        object: 'payment_intent',
        amount: 1500,
        customer: 'cus_1',
        metadata: { topUpId: 'x', nested: { no: 1 } },
        receipt_email: 'someone@example.com',
      }),
    );
    expect(read).toEqual({
      processorEventId: 'evt_123',
      eventType: 'payment_intent.succeeded',
      objectId: 'pi_1',
      amountCents: 1500,
      customerId: 'cus_1',
      paymentMethodId: null,
      metadata: { topUpId: 'x' },
      failureMessage: null,
      account: null,
      occurredAt: new Date(1_790_000_000_000).toISOString(),
    });
  });

  it('keeps the onboarding flags and the vendor tag of account.updated', () => {
    const read = readPaymentEvent(
      event('account.updated', {
        id: 'acct_1',
        object: 'account',
        type: 'express',
        charges_enabled: true,
        details_submitted: false,
        payouts_enabled: false,
        email: 'vendor@example.com',
        metadata: { vendorId: 'v-1' },
        requirements: { currently_due: ['external_account'] },
      }),
    );
    expect(read).toEqual({
      processorEventId: 'evt_123',
      eventType: 'account.updated',
      objectId: 'acct_1',
      amountCents: null,
      customerId: null,
      paymentMethodId: null,
      metadata: { vendorId: 'v-1' },
      failureMessage: null,
      account: { chargesEnabled: true, detailsSubmitted: false, payoutsEnabled: false },
      occurredAt: new Date(1_790_000_000_000).toISOString(),
    });
  });

  it('answers null for types we do not handle', () => {
    expect(readPaymentEvent(event('charge.refunded', { id: 'ch_1' }))).toBeNull();
  });

  it.each([
    ['not an object', 'text'],
    ['an array', []],
    ['no id', { type: 'x', created: 1, data: { object: {} } }],
    ['an id with odd characters', { ...event('payment_intent.succeeded', { id: 'pi_1', amount: 1 }), id: 'evt/../x' }],
    ['no created', { id: 'evt_1', type: 'x', data: { object: {} } }],
    ['no data.object', { id: 'evt_1', type: 'x', created: 1, data: {} }],
    ['a fractional amount', event('payment_intent.succeeded', { id: 'pi_1', amount: 1.5 })],
    ['no amount', event('payment_intent.succeeded', { id: 'pi_1' })],
    ['an account without its onboarding flags', event('account.updated', { id: 'acct_1', charges_enabled: true })],
    [
      'an account with a flag that is not a boolean',
      event('account.updated', { id: 'acct_1', charges_enabled: 'yes', details_submitted: true }),
    ],
  ])('refuses %s with a 400', (_, body) => {
    expect(() => readPaymentEvent(body)).toThrow(DomainError);
  });
});
