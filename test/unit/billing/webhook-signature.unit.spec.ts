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

  it('refuses a timestamp more than the tolerance ahead of our clock, and accepts a small skew either way', () => {
    const signature = new WebhookSignature('whsec_main');
    const at = (seconds: number) => signature.sign(body, new Date(now.getTime() + seconds * 1000));
    const verifies = (header: string) => signature.verifies(Buffer.from(body), header, now);
    expect(verifies(at(3600))).toBe(false);
    expect(verifies(at(301))).toBe(false);
    expect(verifies(at(300))).toBe(true);
    expect(verifies(at(30))).toBe(true);
    expect(verifies(at(-30))).toBe(true);
    expect(verifies(at(-301))).toBe(false);
  });

  it('bounds the timestamp that was signed: a second t= that the SDK reads last cannot slip past', () => {
    const signature = new WebhookSignature('whsec_main');
    const ahead = signature.sign(body, new Date(now.getTime() + 3600_000));
    const t = Math.floor(now.getTime() / 1000);
    expect(signature.verifies(Buffer.from(body), `t=${t},${ahead}`, now)).toBe(false);
  });
});
