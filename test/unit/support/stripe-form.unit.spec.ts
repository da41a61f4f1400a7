import Stripe from 'stripe';
import { FormSyntaxError, parseStripeForm } from '../../support/stripe-form';

describe('parseStripeForm', () => {
  it('nests bracketed keys into objects', () => {
    expect(parseStripeForm('amount=1500&currency=usd&metadata[topUpId]=tu_1&metadata[ownerId]=usr_2')).toEqual({
      amount: '1500',
      currency: 'usd',
      metadata: { topUpId: 'tu_1', ownerId: 'usr_2' },
    });
    expect(parseStripeForm('a[b][c]=deep&a[b][d]=er&a[e]=shallow')).toEqual({ a: { b: { c: 'deep', d: 'er' }, e: 'shallow' } });
  });

  it('decodes percent-encoding and + in keys and values, brackets encoded or not', () => {
    expect(parseStripeForm('description=Top+up%20%2410%21&metadata%5Bnote%5D=a%26b%3Dc&metadata[caf%C3%A9]=%E2%9C%93')).toEqual({
      description: 'Top up $10!',
      metadata: { note: 'a&b=c', café: '✓' },
    });
  });

  it('keeps empty values and keys without =, and skips empty pairs', () => {
    expect(parseStripeForm('')).toEqual({});
    expect(parseStripeForm('metadata[old]=&confirm&&off_session=true')).toEqual({
      metadata: { old: '' },
      confirm: '',
      off_session: 'true',
    });
  });

  it('reads lists as objects keyed by index, and a repeated scalar as its last value', () => {
    expect(parseStripeForm('expand[0]=customer&expand[1]=latest_charge')).toEqual({
      expand: { 0: 'customer', 1: 'latest_charge' },
    });
    expect(parseStripeForm('limit=10&limit=100')).toEqual({ limit: '100' });
  });

  it('reads back exactly what the Stripe SDK sends', async () => {
    const body = await sdkRequestBody({
      amount: 1500,
      currency: 'usd',
      confirm: true,
      metadata: { 'key with spaces': "it's (50%) *off*", empty: '', unicode: 'żółć 🚀', 'a&b=c': '+' },
      expand: ['customer', 'latest_charge'],
    });

    expect(parseStripeForm(body)).toEqual({
      amount: '1500',
      currency: 'usd',
      confirm: 'true',
      metadata: { 'key with spaces': "it's (50%) *off*", empty: '', unicode: 'żółć 🚀', 'a&b=c': '+' },
      expand: { 0: 'customer', 1: 'latest_charge' },
    });
  });

  it('never writes through __proto__', () => {
    const params = parseStripeForm('__proto__[polluted]=yes&metadata[__proto__]=x&constructor[prototype][bad]=1');

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.keys(params)).toEqual(['__proto__', 'metadata', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toEqual({ polluted: 'yes' });
  });

  it.each([
    ['a=1&a[b]=2', 'a is both a value and an object'],
    ['a[b]=2&a=1', 'a is both a value and an object'],
    ['a[b]=1&a[b][c]=2', 'a.b is both a value and an object'],
    ['a[]=1', 'Empty brackets'],
    ['[a]=1', 'Invalid parameter name'],
    ['a[b=1', 'Invalid parameter name'],
    ['a]b=1', 'Invalid parameter name'],
    ['a[b]c=1', 'Invalid parameter name'],
    ['a=%E0%A4%A', 'Invalid percent-encoding'],
    // What the SDK sends for a metadata key with brackets, which Stripe forbids.
    ['metadata[x[y]]=1', 'Invalid parameter name'],
  ])('refuses %s', (encoded, message) => {
    expect(() => parseStripeForm(encoded)).toThrow(FormSyntaxError);
    expect(() => parseStripeForm(encoded)).toThrow(message);
  });
});

/** The body the SDK puts on the wire for `paymentIntents.create`, caught by an HTTP client that sends nothing. */
async function sdkRequestBody(params: Stripe.PaymentIntentCreateParams): Promise<string> {
  let sent = '';
  const capture: Stripe.HttpClient = {
    getClientName: () => 'capture',
    makeRequest: async (_host, _port, _path, _method, _headers, requestData) => {
      sent = requestData;
      return {
        getStatusCode: () => 200,
        getHeaders: () => ({}),
        getRawResponse: () => ({}),
        toStream: () => undefined,
        toJSON: async () => ({ id: 'pi_captured', object: 'payment_intent' }),
      };
    },
  };
  await new Stripe('sk_test_unit', { httpClient: capture, maxNetworkRetries: 0 }).paymentIntents.create(params);
  return sent;
}
