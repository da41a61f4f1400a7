import { performance } from 'node:perf_hooks';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { derivedId } from '../../../../platform/ids';
import { ServiceCallError, ServiceClient } from '../../clients/service-client';
import { probesStreamId, ServiceProbed } from '../../domain/probe';
import { ServiceDirectory } from '../../read-models/service-directory';
import { NetworkEvents } from '../../events';
import { ProbeServiceCommand } from './probe-service.command';

/** A probe waits at most this long (or the call timeout, if shorter). */
const PROBE_TIMEOUT_MS = 10_000;

@CommandHandler(ProbeServiceCommand)
export class ProbeServiceHandler implements ICommandHandler<ProbeServiceCommand, ServiceProbed['data'] | null> {
  constructor(
    private readonly store: EventStore,
    private readonly directory: ServiceDirectory,
    private readonly client: ServiceClient,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ listingId, probeId }: ProbeServiceCommand): Promise<ServiceProbed['data'] | null> {
    const terms = await this.directory.forProbe(listingId);
    if (!terms?.endpoint || !terms.protocol) return null;
    const started = performance.now();
    let toolNames: string[] = [];
    let error: string | null = null;
    try {
      toolNames = await this.client.listTools(
        { endpoint: terms.endpoint, protocol: terms.protocol, transport: terms.transport },
        Math.min(PROBE_TIMEOUT_MS, this.config.network.serviceCallTimeoutMs),
      );
    } catch (failure) {
      error = failure instanceof ServiceCallError ? failure.message : 'The service could not be reached';
    }
    const probed: ServiceProbed = {
      type: NetworkEvents.ServiceProbed,
      data: {
        listingId,
        status: error === null ? 'ok' : 'error',
        responseMs: Math.round(performance.now() - started),
        toolsCount: toolNames.length,
        toolNames,
        error,
        checkedAt: this.clock.now().toISOString(),
      },
    };
    await this.store.append(probesStreamId(listingId), [{ eventId: derivedId(probed.type, probeId), ...probed }], 'any');
    return probed.data;
  }
}
