import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { EventStore } from '../event-store/event-store';
import { APPLICATION_NAME } from '../platform/database/database.module';
import { AdvisoryLockSession } from './runner/advisory-lock-session';
import { handlesType, ProcessManager, Processor, PROCESSOR_KIND, Projection } from './runner/processor';
import { DEFAULT_RUNNER_OPTIONS, ProcessorRunner } from './runner/processor-runner';

/** Finds every projection and process manager in the app and runs each with its own runner. */
@Injectable()
export class ProcessorsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Processors');
  readonly processors: Processor[];
  readonly runners: ProcessorRunner[];
  /** One session for every runner's lock, opened when the first runner starts. */
  private readonly locks: AdvisoryLockSession;

  constructor(
    discovery: DiscoveryService,
    reflector: Reflector,
    dataSource: DataSource,
    store: EventStore,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.processors = discovery
      .getProviders()
      .filter((wrapper) => wrapper.instance && wrapper.metatype && reflector.get(PROCESSOR_KIND, wrapper.metatype))
      .map((wrapper): Processor => {
        const kind = reflector.get(PROCESSOR_KIND, wrapper.metatype!);
        return kind === 'projection'
          ? { kind, projection: wrapper.instance as Projection }
          : { kind: 'process', process: wrapper.instance as ProcessManager };
      });
    const names = this.processors.map((p) => (p.kind === 'projection' ? p.projection.name : p.process.name));
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate) throw new Error(`two processors are named ${duplicate}`);
    this.locks = new AdvisoryLockSession({
      connectionString: config.databaseUrl,
      connectionTimeoutMillis: config.databasePool.connectTimeoutMs,
      application_name: `${APPLICATION_NAME}-locks`,
    });
    this.runners = this.processors.map(
      (p) => new ProcessorRunner(p, dataSource, store, this.logger, DEFAULT_RUNNER_OPTIONS, this.locks),
    );
  }

  /** The projections that read at least one of these event types. */
  projectionsReading(eventTypes: Iterable<string>): string[] {
    const types = [...eventTypes];
    return this.processors
      .filter((p) => p.kind === 'projection' && types.some(handlesType(p)))
      .map((p) => (p as { projection: Projection }).projection.name);
  }

  /** The process managers that name at least one of these event types (not those reading everything, like the relay). */
  sagasReading(eventTypes: Iterable<string>): string[] {
    const types = [...eventTypes];
    return this.processors
      .filter((p) => p.kind === 'process' && p.process.eventTypes !== 'all' && types.some(handlesType(p)))
      .map((p) => (p as { process: ProcessManager }).process.name);
  }

  get projectionNames(): string[] {
    return this.processors.filter((p) => p.kind === 'projection').map((p) => (p as { projection: Projection }).projection.name);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runProcessors) return;
    await Promise.all(this.runners.map((runner) => runner.start()));
  }

  /**
   * Stops every runner at a checkpoint: a projection commits the batch in hand, a process manager finishes
   * the event in hand. Shutdown calls it before the queues close, since process managers enqueue jobs.
   */
  async stop(): Promise<void> {
    await Promise.all(this.runners.map((runner) => runner.stop()));
    await this.locks.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
