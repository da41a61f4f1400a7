import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream, foldStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { hasVerificationRecord } from '../../domain/domain-record';
import { DnsTxtLookup } from '../../domain/ports';
import { NO_VENDOR_PROFILE } from '../../domain/vendor-profile';
import { vendorDecider, vendorStreamId } from '../../domain/vendor.decider';
import { CheckDomainCommand } from './check-domain.command';

/** A lookup that fails is a 503 and changes nothing: only an answer without the record lapses the proof. */
@CommandHandler(CheckDomainCommand)
export class CheckDomainHandler implements ICommandHandler<CheckDomainCommand, boolean> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly dns: DnsTxtLookup,
  ) {}

  async execute({ vendorId }: CheckDomainCommand): Promise<boolean> {
    const streamId = vendorStreamId(vendorId);
    const { state } = await foldStream(this.store, streamId, vendorDecider.evolve, vendorDecider.initialState);
    if (!state.exists) throw new DomainError('forbidden', NO_VENDOR_PROFILE);
    if (!state.domain) throw new DomainError('unprocessable', 'Request a DNS record first: POST /v1/vendor/verify/domain');
    const { host, token } = state.domain;
    const present = hasVerificationRecord(await this.dns.txtRecords(host), token);
    const now = this.clock.now();
    const command = present
      ? { type: 'ConfirmDomain' as const, host, now }
      : { type: 'LapseDomain' as const, reason: `the TXT record on ${host} is missing`, now };
    await decideOnStream(this.store, streamId, vendorDecider, command);
    return present;
  }
}
