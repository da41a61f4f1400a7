import { randomUUID } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { defineEventCatalogue } from '../../src/event-store/event-catalogue';
import { EventStore, RecordedEvent } from '../../src/event-store/event-store';
import { runProjectionsCli } from '../../src/projections/cli/projections-cli';
import { AsProjection, Projection } from '../../src/projections/runner/processor';
import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';

defineEventCatalogue('test-fragile', { FragileThingHappened: { schemaVersion: 1 } });

/** A projection that fails while the "bug" is in: its events are parked as dead letters. */
let broken = true;
const applied: string[] = [];

@Injectable()
@AsProjection()
class FragileProjection implements Projection {
  readonly name = 'test-fragile';
  readonly eventTypes = ['FragileThingHappened'];

  async apply(event: RecordedEvent, _tx: EntityManager): Promise<void> {
    if (broken) throw new Error('the bug');
    applied.push(event.eventId);
  }

  async reset(): Promise<void> {}
}

@Module({ providers: [FragileProjection] })
class FragileFeatureModule {}

describe('dead letters', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ features: [FragileFeatureModule] });
  });
  afterAll(async () => app?.close());

  const cli = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runProjectionsCli(
      args,
      loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent' }),
      (line) => lines.push(line),
      [FragileFeatureModule],
    );
    return { code, output: lines.join('\n') };
  };
  const health = async () => (await fetch(`${app.url}/health`)).status;

  it('never go unseen: health is degraded while one is parked, and the operator lists and retries them after a fix', async () => {
    expect(await health()).toBe(200);
    await app.server.app
      .get(EventStore)
      .append(`fragile-${randomUUID()}`, [{ type: 'FragileThingHappened', data: {} }], 'no_stream');
    await eventually(async () => (await health()) === 503, { description: 'health to report the dead letter' });

    const listed = await cli('dead-letters');
    expect(listed.code).toBe(0);
    expect(listed.output).toMatch(/test-fragile\s+FragileThingHappened .* attempts 3 {2}the bug/);

    const stillBroken = await cli('retry-dead-letters', 'test-fragile');
    expect(stillBroken.code).toBe(1);
    expect(stillBroken.output).toMatch(/failed again: the bug/);

    broken = false;
    const retried = await cli('retry-dead-letters');
    expect(retried.code).toBe(0);
    expect(retried.output).toMatch(/FragileThingHappened .*: applied/);
    expect(applied).toHaveLength(1);
    expect((await cli('dead-letters')).output).toBe('no dead letters');
    expect(await health()).toBe(200);
  });
});
