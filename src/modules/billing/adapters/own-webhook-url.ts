import type { AddressInfo } from 'node:net';
import { HttpAdapterHost } from '@nestjs/core';

/** The route the processor, and the sandbox in its place, delivers events to. */
export const PAY_WEBHOOK_PATH = '/v1/webhooks/pay';

/**
 * Where this process's own webhook route answers, from the address its HTTP
 * server is bound to: a loopback address when bound to every interface (of the
 * bound family), otherwise the bound address itself. Throws while the server
 * is not listening (before listen, after close) or listens on a pipe: the
 * settlement job then fails and is retried.
 */
export function ownWebhookUrl(address: AddressInfo | string | null): string {
  if (address === null) throw new Error('the HTTP server is not listening');
  if (typeof address === 'string') throw new Error(`the HTTP server listens on a pipe (${address}), not a TCP port`);
  return `http://${hostOf(address.address)}:${address.port}${PAY_WEBHOOK_PATH}`;
}

/** For the sandbox settlement worker: the listening port is known only after listen, so it is read at each delivery. */
export function ownWebhookUrlFrom(host: HttpAdapterHost): () => string {
  return () => ownWebhookUrl(host.httpAdapter?.getHttpServer()?.address() ?? null);
}

function hostOf(bound: string): string {
  if (bound === '0.0.0.0') return '127.0.0.1';
  if (bound === '::') return '[::1]';
  return bound.includes(':') ? `[${bound.replace('%', '%25')}]` : bound;
}
