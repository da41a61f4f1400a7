import { randomBytes } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { domainVerificationRecord } from '../../domain/domain-record';
import { vendorDecider, vendorStreamId } from '../../domain/vendor.decider';
import { VendorsReader } from '../../read-models/vendors.reader';
import { RequestDomainRecordCommand } from './request-domain-record.command';

@CommandHandler(RequestDomainRecordCommand)
export class RequestDomainRecordHandler implements ICommandHandler<RequestDomainRecordCommand, string> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly vendors: VendorsReader,
  ) {}

  async execute({ vendorId }: RequestDomainRecordCommand): Promise<string> {
    await this.vendors.require(vendorId);
    const { state } = await decideOnStream(this.store, vendorStreamId(vendorId), vendorDecider, {
      type: 'IssueDomainChallenge',
      token: randomBytes(20).toString('hex'),
      now: this.clock.now(),
    });
    if (!state.exists || !state.domain) throw new DomainError('unprocessable', 'No domain challenge was issued');
    return domainVerificationRecord(state.domain.token);
  }
}
