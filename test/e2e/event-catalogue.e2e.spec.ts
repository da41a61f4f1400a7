import { randomUUID } from 'node:crypto';
import { EventCatalogue } from '../../src/event-store/event-catalogue';
import { EventStore } from '../../src/event-store/event-store';
import { ProcessorsService } from '../../src/projections/processors.service';
import { startTestApp, TestApp } from '../support/app';

describe('event catalogues', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RUN_PROCESSORS: 'false' } });
  });
  afterAll(async () => app?.close());

  it('declare every event type a projection or process manager reads', () => {
    const undeclared: string[] = [];
    for (const processor of app.server.app.get(ProcessorsService).processors) {
      const { name, eventTypes } = processor.kind === 'projection' ? processor.projection : processor.process;
      if (eventTypes === 'all') continue;
      for (const type of eventTypes) if (!EventCatalogue.isDeclared(type)) undeclared.push(`${name} reads ${type}`);
    }
    expect(undeclared).toEqual([]);
  });

  it('are the only types the store appends, each stamped with its schema version', async () => {
    const store = app.server.app.get(EventStore);
    await expect(store.append(`stray-${randomUUID()}`, [{ type: 'StrayEvent', data: {} }], 'any')).rejects.toThrow(
      /StrayEvent is declared by no module/,
    );
    const streamId = `user-${randomUUID()}`;
    await store.append(
      streamId,
      [{ type: 'UserDeleted', data: { userId: 'u', deletedAt: new Date().toISOString(), tokenIds: [] } }],
      'any',
    );
    const [stored] = await store.readStream(streamId);
    expect(stored.metadata.schemaVersion).toBe(2);
  });

  it('upcast old shapes on read: a first-version UserDeleted names no tokens', async () => {
    const store = app.server.app.get(EventStore);
    const streamId = `user-${randomUUID()}`;
    await store.append(
      streamId,
      [{ type: 'UserDeleted', data: { userId: 'u', deletedAt: new Date().toISOString() }, metadata: { schemaVersion: 1 } }],
      'any',
    );
    const [stored] = await store.readStream(streamId);
    expect(stored.data.tokenIds).toEqual([]);
  });
});
