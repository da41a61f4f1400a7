import { WebhookSignature } from '../../../src/modules/billing/adapters/webhook-signature';

const now = new Date('2026-11-24T10:00:00.000Z');
const body = '{"id":"evt_1","type":"account.updated"}';

describe('webhook signatures', () => {
  it('accepts a signature by the endpoint secret or a further one (a Connect endpoint), and nothing else', () => {
    const connect = new WebhookSignature('whsec_connect');
    const header = connect.sign(body, now);
    expect(new WebhookSignature('whsec_main', ['whsec_connect']).verifies(Buffer.from(body), header, now)).toBe(true);
    expect(new WebhookSignature('whsec_main').verifies(Buffer.from(body), header, now)).toBe(false);
  });

  it('refuses other bytes, a stale timestamp and a missing header', () => {
    const signature = new WebhookSignature('whsec_main');
    const header = signature.sign(body, now);
    expect(signature.verifies(Buffer.from(body), header, now)).toBe(true);
    expect(signature.verifies(Buffer.from(`${body} `), header, now)).toBe(false);
    expect(signature.verifies(Buffer.from(body), header, new Date(now.getTime() + 301_000))).toBe(false);
    expect(signature.verifies(Buffer.from(body), undefined, now)).toBe(false);
  });
});
