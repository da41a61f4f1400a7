import { Command } from '@nestjs/cqrs';
import { ServiceProbed } from '../../domain/probe';

/** Connects to the listing's service, lists its tools and records `ServiceProbed`; null when it has no service. */
export class ProbeServiceCommand extends Command<ServiceProbed['data'] | null> {
  constructor(
    readonly listingId: string,
    /** The probe's own id (its job's): a probe run again records nothing new. */
    readonly probeId: string,
  ) {
    super();
  }
}
