import * as net from 'node:net';

export interface PostgresGate {
  /** `upstreamUrl` with the host and port of the gate. */
  url: string;
  /** While on, new connections are refused the way a PostgreSQL out of connection slots refuses them. */
  refuseNewConnections(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A TCP gate on loopback in front of the real PostgreSQL. It passes connections
 * through, or answers a new one's startup message with the server's own FATAL
 * 53300 "sorry, too many clients already", so the real driver sees the real
 * error without the shared server being exhausted.
 */
export async function startPostgresGate(upstreamUrl: string): Promise<PostgresGate> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (refusing) {
      client.once('data', () =>
        client.end(errorResponse({ S: 'FATAL', V: 'FATAL', C: '53300', M: 'sorry, too many clients already' })),
      );
      return;
    }
    const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
    track(server);
    client.pipe(server).pipe(client);
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(upstreamUrl);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    refuseNewConnections: (on) => (refusing = on),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A protocol v3 ErrorResponse: 'E', Int32 length, then (type byte, C string) fields and a final zero byte. */
function errorResponse(fields: Record<string, string>): Buffer {
  const body = Buffer.concat([
    ...Object.entries(fields).map(([type, value]) => Buffer.from(`${type}${value}\0`)),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
