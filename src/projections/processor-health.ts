import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { EventStore } from '../event-store/event-store';
import { ProcessorsService } from './processors.service';
import { Checkpoints } from './runner/checkpoints';
import { processorName } from './runner/processor';

/**
 * What is wrong with the read side, for `/health`: an event some processor
 * gave up on (a dead letter nobody has seen is data silently not applied), or
 * a processor more than `HEALTH_MAX_LAG_EVENTS` events behind the log.
 */
@Injectable()
export class ProcessorHealth {
  constructor(
    private readonly processors: ProcessorsService,
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async problems(): Promise<string[]> {
    const names = this.processors.processors.map(processorName);
    const problems: string[] = [];
    const dead: { processor: string; count: number }[] = await this.dataSource.query(
      `SELECT processor, count(*)::int AS count FROM processor_dead_letters WHERE processor = ANY($1) GROUP BY processor`,
      [names],
    );
    for (const { processor, count } of dead) problems.push(`${processor} holds ${count} dead letter(s)`);

    const bound = this.config.healthMaxLagEvents;
    const checkpoints = (await Checkpoints.readAll(this.dataSource.manager)).filter((c) => names.includes(c.name));
    if (checkpoints.length === 0) return problems;
    const furthestBehind = checkpoints.reduce((a, b) => (a.position.compare(b.position) <= 0 ? a : b));
    // One bounded read from the slowest checkpoint tells every processor's lag up to the bound.
    const ahead = await this.store.readAll({ after: furthestBehind.position, maxCount: bound + 1 });
    for (const checkpoint of checkpoints) {
      const lag = ahead.filter((event) => event.position.isAfter(checkpoint.position)).length;
      if (lag > bound) problems.push(`${checkpoint.name} is more than ${bound} events behind`);
    }
    return problems;
  }
}
