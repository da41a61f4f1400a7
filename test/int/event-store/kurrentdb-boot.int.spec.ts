import { createServer } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { ServerFeaturesService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_grpc_pb';
import { SupportedMethods } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_pb';
import { Pool } from 'pg';
import { AppConfig, ConfigError } from '../../../src/config/app-config';
import { EventStoreUnavailableError } from '../../../src/event-store/event-store';
import { createEventStoreAdapter } from '../../../src/event-store/event-store.module';
import { EventStoreDbEventStore } from '../../../src/event-store/eventstoredb/eventstoredb-event-store';
import { SystemClock } from '../../../src/platform/clock/clock';

/**
 * The boot-time version check, against a loopback gRPC server that answers the
 * ServerFeatures call the way KurrentDB does (or does not, like one too old to have it).
 */
describe('KurrentDB adapter at boot', () => {
  const servers: grpc.Server[] = [];
  afterAll(() => servers.forEach((s) => s.forceShutdown()));

  async function serverReporting(version: string | null): Promise<string> {
    const server = new grpc.Server();
    if (version !== null)
      server.addService(ServerFeaturesService, {
        getSupportedMethods: (_call: unknown, reply: grpc.sendUnaryData<SupportedMethods>) => {
          const methods = new SupportedMethods();
          methods.setEventStoreServerVersion(version);
          reply(null, methods);
        },
      });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    servers.push(server);
    return `kurrentdb://127.0.0.1:${port}?tls=false`;
  }

  const boot = (eventStoreUrl: string) =>
    createEventStoreAdapter(
      { eventStore: 'eventstoredb', eventStoreUrl } as AppConfig,
      undefined as unknown as Pool,
      new SystemClock(),
    );

  it('refuses a server older than 25.1, naming both versions', async () => {
    const booting = boot(await serverReporting('24.10.0'));
    await expect(booting).rejects.toBeInstanceOf(ConfigError);
    await expect(booting).rejects.toThrow(
      'Invalid configuration: EVENTSTORE_URL points at KurrentDB/EventStoreDB 24.10; multi-stream appends need KurrentDB 25.1 or later',
    );
  });

  it('refuses a server that does not report its version', async () => {
    await expect(boot(await serverReporting(null))).rejects.toThrow(/reports no usable version \("unknown"\); .*25\.1 or later/);
  });

  it('accepts KurrentDB 25.1 and later', async () => {
    for (const version of ['25.1.0', '26.1.1']) {
      const store = await boot(await serverReporting(version));
      expect(store).toBeInstanceOf(EventStoreDbEventStore);
      await store.close();
    }
  });

  it('fails with EventStoreUnavailableError when nothing answers', async () => {
    // A port that was free a moment ago.
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const url = `kurrentdb://127.0.0.1:${port}?tls=false`;
    await expect(boot(url)).rejects.toBeInstanceOf(EventStoreUnavailableError);

    // Every operation says the same, so the HTTP layer answers 503 rather than 500.
    const store = new EventStoreDbEventStore(url);
    const one = [{ type: 'X', data: {} }];
    const outcomes = await Promise.allSettled([
      store.append('a', one, 'any'),
      store.appendAtomically([
        { streamId: 'a', events: one, expected: 'any' },
        { streamId: 'b', events: one, expected: 'no_stream' },
      ]),
      store.readStream('a'),
      store.readAll({ maxCount: 1 }),
      store.headPosition(),
      store.ping(),
    ]);
    expect(outcomes.map((o) => o.status === 'rejected' && o.reason instanceof EventStoreUnavailableError)).toEqual(
      outcomes.map(() => true),
    );
    await store.close();
  });
});
