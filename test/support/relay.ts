import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A loopback HTTP relay in front of the app, listening before the app starts so
 * its address can be the app's BASE_URL (signed download URLs point at it).
 * `tamper` rewrites matching response bodies, as a compromised mirror would;
 * `loseAnswers` lets that many requests reach the app and then cuts the
 * client's connection instead of answering, as a dropped network would.
 */
export class Relay {
  target = '';
  tamper: ((path: string, body: Buffer) => Buffer) | null = null;
  loseAnswers = 0;
  /** Every request's method, path and Idempotency-Key, in order. */
  readonly seen: { method: string; path: string; idempotencyKey: string | undefined }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Relay> {
    let relay: Relay | undefined;
    const server = createServer((incoming, outgoing) => relay!.forward(incoming, outgoing));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    relay = new Relay(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return relay;
  }

  private forward(incoming: import('node:http').IncomingMessage, outgoing: import('node:http').ServerResponse): void {
    const target = new URL(incoming.url ?? '/', this.target);
    const key = incoming.headers['idempotency-key'];
    this.seen.push({ method: incoming.method ?? '', path: target.pathname, idempotencyKey: Array.isArray(key) ? key[0] : key });
    const loseAnswer = this.loseAnswers > 0;
    if (loseAnswer) this.loseAnswers--;
    const upstream = request(
      target,
      { method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (response) => {
        if (loseAnswer) {
          response.resume();
          response.on('end', () => outgoing.socket?.destroy());
          return;
        }
        const tamper = this.tamper;
        if (!tamper) {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = tamper(target.pathname, Buffer.concat(chunks));
          outgoing.writeHead(response.statusCode ?? 502, { ...response.headers, 'content-length': String(body.length) });
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
