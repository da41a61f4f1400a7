import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { signingKeysDecider, signingKeysStreamId } from '../../domain/signing-keys.decider';
import { VendorsReader } from '../../read-models/vendors.reader';
import { RevokeSigningKeyCommand } from './revoke-signing-key.command';

@CommandHandler(RevokeSigningKeyCommand)
export class RevokeSigningKeyHandler implements ICommandHandler<RevokeSigningKeyCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly vendors: VendorsReader,
  ) {}

  async execute({ vendorId, fingerprint }: RevokeSigningKeyCommand): Promise<void> {
    await this.vendors.require(vendorId);
    await decideOnStream(this.store, signingKeysStreamId(vendorId), signingKeysDecider, {
      type: 'RevokeKey',
      vendorId,
      fingerprint: fingerprint.toLowerCase(),
      now: this.clock.now(),
    });
  }
}
