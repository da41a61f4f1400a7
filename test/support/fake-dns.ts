import * as dgram from 'node:dgram';
import * as net from 'node:net';
import * as dnsPacket from 'dns-packet';

/** A tiny authoritative DNS server on loopback, answering TXT queries over UDP and TCP on one port. */
export interface FakeDns {
  /** `127.0.0.1:<port>`, usable as a DNS_SERVERS entry. */
  address: string;
  /** Values longer than 255 bytes are sent as one record of several character-strings, as real zones do. */
  setTxt(host: string, values: string[]): void;
  remove(host: string): void;
  /** Answer every query for the host with this rcode; null goes back to normal answers. */
  failWith(host: string, rcode: 'SERVFAIL' | 'REFUSED' | null): void;
  /** Queries received, over both transports. */
  readonly queries: number;
  /** Of those, the ones that came over TCP (a resolver retries there after a truncated UDP answer). */
  readonly tcpQueries: number;
  close(): Promise<void>;
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
// Without EDNS a UDP answer is capped at 512 bytes (RFC 1035); bigger ones go out truncated.
const CLASSIC_UDP_LIMIT = 512;
// Zero, so a resolver cache never hides a change a test makes between two lookups.
const TTL = 0;

export async function startFakeDns(): Promise<FakeDns> {
  const records = new Map<string, string[]>();
  const failures = new Map<string, 'SERVFAIL' | 'REFUSED'>();
  const counts = { udp: 0, tcp: 0 };
  const key = (host: string) => host.toLowerCase().replace(/\.$/, '');

  const answer = (query: dnsPacket.DecodedPacket, maxBytes: number): Buffer => {
    const question = query.questions?.[0];
    // Echo RD, claim RA (we play a recursive resolver) and AA (we own every name we serve).
    const baseFlags = (query.flags ?? 0) & (dnsPacket.RECURSION_DESIRED | (0xf << 11));
    const respond = (rcode: number, answers: dnsPacket.Answer[] = []): Buffer => {
      const flags = baseFlags | dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | rcode;
      const response: dnsPacket.Packet = { type: 'response', id: query.id, flags, questions: query.questions, answers };
      const encoded = dnsPacket.encode(response);
      if (encoded.length <= maxBytes) return encoded;
      return dnsPacket.encode({ ...response, flags: flags | dnsPacket.TRUNCATED_RESPONSE, answers: [] });
    };
    if (!question) return respond(1 /* FORMERR */);
    const name = key(question.name);
    const failure = failures.get(name);
    if (failure) return respond(RCODES[failure]);
    const values = records.get(name);
    if (!values) return respond(RCODES.NXDOMAIN);
    if (question.type !== 'TXT') return respond(RCODES.NOERROR); // NODATA: the name exists, this type does not
    return respond(
      RCODES.NOERROR,
      values.map((value) => ({ type: 'TXT', class: 'IN', name: question.name, ttl: TTL, data: characterStrings(value) })),
    );
  };

  const onUdp = (udp: dgram.Socket) => (message: Buffer, remote: dgram.RemoteInfo) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // not DNS: drop it, as a real server would
    }
    counts.udp++;
    const opt = query.additionals?.find((record) => record.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    const limit = Math.max(CLASSIC_UDP_LIMIT, opt?.udpPayloadSize ?? CLASSIC_UDP_LIMIT);
    udp.send(answer(query, limit), remote.port, remote.address);
  };

  const sockets = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    // TCP messages carry a 2-byte length prefix and may arrive split or several to a chunk.
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        let query: dnsPacket.DecodedPacket;
        try {
          query = dnsPacket.decode(message);
        } catch {
          socket.destroy();
          return;
        }
        counts.tcp++;
        const response = answer(query, 65535);
        const frame = Buffer.alloc(2 + response.length);
        frame.writeUInt16BE(response.length, 0);
        response.copy(frame, 2);
        socket.write(frame);
      }
    });
  });
  const udp = await bindSamePort(tcp, (socket) => socket.on('message', onUdp(socket)));
  const port = udp.address().port;

  return {
    address: `127.0.0.1:${port}`,
    setTxt: (host, values) => void records.set(key(host), [...values]),
    remove: (host) => void records.delete(key(host)),
    failWith: (host, rcode) => void (rcode ? failures.set(key(host), rcode) : failures.delete(key(host))),
    get queries() {
      return counts.udp + counts.tcp;
    },
    get tcpQueries() {
      return counts.tcp;
    },
    close: async () => {
      // Resolvers keep TCP connections open; end them or the server never finishes closing.
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

/** Binds UDP on a free port, then TCP on the same number; retries when TCP finds that number taken. */
async function bindSamePort(tcp: net.Server, setup: (socket: dgram.Socket) => void): Promise<dgram.Socket> {
  for (let attempt = 1; ; attempt++) {
    const udp = dgram.createSocket('udp4');
    setup(udp);
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => {
        udp.off('error', reject);
        udp.on('error', () => undefined); // a send to a vanished client must not crash the test run
        resolve();
      });
    });
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(udp.address().port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return udp;
    } catch (error) {
      udp.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 10) throw error;
    }
  }
}

/** A TXT record's text as character-strings of at most 255 bytes each. */
function characterStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 255) chunks.push(bytes.subarray(offset, offset + 255));
  return chunks.length ? chunks : [Buffer.alloc(0)];
}
