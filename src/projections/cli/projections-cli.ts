import { DynamicModule, INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from '../../app.module';
import { resolveInfrastructure } from '../../bootstrap';
import { AppConfig } from '../../config/app-config';
import { EventStore } from '../../event-store/event-store';
import { LogPosition } from '../../event-store/log-position';
import { DeadLetters } from '../dead-letters';
import { ProcessorsService } from '../processors.service';
import { Checkpoints } from '../runner/checkpoints';
import { processorName } from '../runner/processor';
import { isProcessorActive, ProcessorRunner } from '../runner/processor-runner';

export interface ProcessorStatus {
  name: string;
  kind: 'projection' | 'process';
  checkpoint: string;
  lag: number;
  active: boolean;
  rebuildRequested: boolean;
  deadLetters: number;
}

const USAGE = `usage: npm run projections -- status
       npm run projections -- rebuild [name]             (every projection when no name is given)
       npm run projections -- dead-letters [name]        (events a processor gave up on)
       npm run projections -- retry-dead-letters [name]  (apply them again, after a fix)`;

const COMMANDS = ['status', 'rebuild', 'dead-letters', 'retry-dead-letters'];

/**
 * `status` prints each processor's checkpoint and lag; `rebuild` resets a
 * projection and replays the log while the API keeps serving. A rebuild is a
 * request stored with the checkpoint: the runner that holds the projection
 * (in a running API) performs it; when none does, this command runs it itself.
 */
export async function runProjectionsCli(
  args: string[],
  config: AppConfig,
  print: (line: string) => void,
  features: DynamicModule['imports'] = [],
): Promise<number> {
  const [command, name] = args;
  if (!COMMANDS.includes(command)) {
    print(USAGE);
    return 2;
  }
  const { config: resolved, release } = await resolveInfrastructure({ ...config, runProcessors: false });
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(resolved, features), {
    logger: ['error', 'warn'],
  });
  try {
    if (command === 'status') {
      for (const status of await processorStatuses(context)) {
        print(
          `${status.name.padEnd(28)} ${status.kind.padEnd(10)} checkpoint ${status.checkpoint.padEnd(16)} lag ${String(status.lag).padStart(7)}` +
            `  ${status.active ? 'active' : 'idle  '}${status.rebuildRequested ? '  rebuild requested' : ''}` +
            `${status.deadLetters ? `  dead letters ${status.deadLetters}` : ''}`,
        );
      }
      return 0;
    }
    if (command === 'dead-letters') {
      const letters = await context.get(DeadLetters).list(name);
      for (const l of letters)
        print(
          `${l.processor.padEnd(28)} ${l.eventType.padEnd(28)} ${l.eventId}  ${l.failedAt}  attempts ${l.attempts}  ${l.error}`,
        );
      if (letters.length === 0) print('no dead letters');
      return 0;
    }
    if (command === 'retry-dead-letters') {
      const outcomes = await context.get(DeadLetters).retry(name);
      for (const { letter, retried, error } of outcomes)
        print(`${letter.processor} ${letter.eventType} ${letter.eventId}: ${retried ? 'applied' : `failed again: ${error}`}`);
      if (outcomes.length === 0) print('no dead letters');
      return outcomes.every((o) => o.retried) ? 0 : 1;
    }
    const processors = context.get(ProcessorsService);
    const targets = name ? [name] : processors.projectionNames;
    const unknown = targets.filter((target) => !processors.projectionNames.includes(target));
    if (unknown.length > 0) {
      print(`not a projection: ${unknown.join(', ')} (projections: ${processors.projectionNames.join(', ') || 'none'})`);
      return 2;
    }
    for (const target of targets) {
      const seconds = await rebuild(context, target);
      print(`${target}: rebuilt and caught up in ${seconds.toFixed(1)} s`);
    }
    return 0;
  } finally {
    await context.close();
    await release();
  }
}

export async function processorStatuses(context: INestApplicationContext): Promise<ProcessorStatus[]> {
  const dataSource = context.get(DataSource);
  const processors = context.get(ProcessorsService);
  const statuses: ProcessorStatus[] = [];
  for (const processor of processors.processors) {
    const name = processorName(processor);
    await Checkpoints.ensure(dataSource.manager, name);
    const checkpoint = await Checkpoints.read(dataSource.manager, name);
    const [{ lag }] = await dataSource.query(
      `SELECT count(*)::int AS lag FROM events
        WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())`,
      [checkpoint.position.commit.toString(), checkpoint.position.prepare.toString()],
    );
    const [{ dead }] = await dataSource.query('SELECT count(*)::int AS dead FROM processor_dead_letters WHERE processor = $1', [
      name,
    ]);
    statuses.push({
      name,
      kind: processor.kind,
      checkpoint: checkpoint.position.toString(),
      lag,
      active: await isProcessorActive(dataSource, name),
      rebuildRequested: checkpoint.rebuildRequested,
      deadLetters: dead,
    });
  }
  return statuses;
}

async function rebuild(context: INestApplicationContext, name: string): Promise<number> {
  const started = Date.now();
  const dataSource = context.get(DataSource);
  const store = context.get(EventStore);
  const processors = context.get(ProcessorsService);
  const head = (await store.headPosition()) ?? LogPosition.START;
  await Checkpoints.requestRebuild(dataSource.manager, name);

  // When no running instance holds the projection, run it here until it has caught up.
  let local: ProcessorRunner | undefined;
  if (!(await isProcessorActive(dataSource, name))) {
    const processor = processors.processors.find((p) => processorName(p) === name)!;
    local = new ProcessorRunner(processor, dataSource, store, new Logger('Rebuild'));
    await local.start();
  }
  try {
    for (;;) {
      const checkpoint = await Checkpoints.read(dataSource.manager, name);
      if (!checkpoint.rebuildRequested && checkpoint.position.compare(head) >= 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await local?.stop();
  }
  return (Date.now() - started) / 1000;
}
