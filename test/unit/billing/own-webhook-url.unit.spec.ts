import { HttpAdapterHost } from '@nestjs/core';
import { ownWebhookUrl, ownWebhookUrlFrom } from '../../../src/modules/billing/adapters/own-webhook-url';

describe('ownWebhookUrl', () => {
  it('reaches a server bound to every interface through the loopback of its family', () => {
    expect(ownWebhookUrl({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://127.0.0.1:3000/v1/webhooks/pay');
    expect(ownWebhookUrl({ address: '::', family: 'IPv6', port: 3000 })).toBe('http://[::1]:3000/v1/webhooks/pay');
  });

  it('uses the address of a server bound to one', () => {
    expect(ownWebhookUrl({ address: '127.0.0.1', family: 'IPv4', port: 41234 })).toBe('http://127.0.0.1:41234/v1/webhooks/pay');
    expect(ownWebhookUrl({ address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080/v1/webhooks/pay');
    expect(ownWebhookUrl({ address: '10.0.0.7', family: 'IPv4', port: 80 })).toBe('http://10.0.0.7:80/v1/webhooks/pay');
  });

  it('refuses while the server is not listening, or listens on a pipe', () => {
    expect(() => ownWebhookUrl(null)).toThrow(/not listening/);
    expect(() => ownWebhookUrl('/tmp/svc.sock')).toThrow(/pipe/);
  });

  it('reads the address at each call, so a port known only after listen is found', () => {
    let address: { address: string; family: string; port: number } | null = null;
    const host = { httpAdapter: { getHttpServer: () => ({ address: () => address }) } } as unknown as HttpAdapterHost;
    const url = ownWebhookUrlFrom(host);
    expect(() => url()).toThrow(/not listening/);
    address = { address: '0.0.0.0', family: 'IPv4', port: 45678 };
    expect(url()).toBe('http://127.0.0.1:45678/v1/webhooks/pay');
  });
});
