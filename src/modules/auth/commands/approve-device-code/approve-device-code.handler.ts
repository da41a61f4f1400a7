import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { decideDeviceCode } from '../../domain/device-code.decider';
import { loadDeviceCode, streamForTypedUserCode } from '../../domain/device-code-stream';
import { DeviceCodesReader } from '../../read-models/device-codes.reader';
import { ApproveDeviceCodeCommand } from './approve-device-code.command';

@CommandHandler(ApproveDeviceCodeCommand)
export class ApproveDeviceCodeHandler implements ICommandHandler<ApproveDeviceCodeCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly deviceCodes: DeviceCodesReader,
    private readonly clock: Clock,
  ) {}

  async execute(command: ApproveDeviceCodeCommand): Promise<void> {
    const streamId = await streamForTypedUserCode(this.deviceCodes, command.userCode);
    const { state, revision } = await loadDeviceCode(this.store, streamId);
    const { approver } = command;
    const events = decideDeviceCode(
      {
        type: 'ApproveDeviceCode',
        userId: approver.userId,
        approverScopes: approver.scopes,
        approverExpiresAt: approver.expiresAt,
        now: this.clock.now(),
      },
      state,
    );
    await this.store.append(streamId, events, revision);
  }
}
