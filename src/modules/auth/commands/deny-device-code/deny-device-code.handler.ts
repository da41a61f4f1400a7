import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { decideDeviceCode } from '../../domain/device-code.decider';
import { loadDeviceCode, streamForTypedUserCode } from '../../domain/device-code-stream';
import { DeviceCodesReader } from '../../read-models/device-codes.reader';
import { DenyDeviceCodeCommand } from './deny-device-code.command';

@CommandHandler(DenyDeviceCodeCommand)
export class DenyDeviceCodeHandler implements ICommandHandler<DenyDeviceCodeCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly deviceCodes: DeviceCodesReader,
    private readonly clock: Clock,
  ) {}

  async execute(command: DenyDeviceCodeCommand): Promise<void> {
    const streamId = await streamForTypedUserCode(this.deviceCodes, command.userCode);
    const { state, revision } = await loadDeviceCode(this.store, streamId);
    const events = decideDeviceCode({ type: 'DenyDeviceCode', userId: command.userId, now: this.clock.now() }, state);
    // At the revision read: an approval racing this denial makes one of the two a 409.
    await this.store.append(streamId, events, revision);
  }
}
