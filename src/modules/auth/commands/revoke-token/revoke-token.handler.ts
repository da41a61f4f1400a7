import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { foldStream } from '../../../../event-store/fold-stream';
import {
  ApiTokenEvent,
  ApiTokenState,
  decideApiToken,
  evolveApiToken,
  initialApiTokenState,
} from '../../domain/api-token.decider';
import { RevokeTokenCommand } from './revoke-token.command';

@CommandHandler(RevokeTokenCommand)
export class RevokeTokenHandler implements ICommandHandler<RevokeTokenCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute(command: RevokeTokenCommand): Promise<void> {
    const streamId = `token-${command.tokenId}`;
    const { state, revision } = await foldStream<ApiTokenState, ApiTokenEvent>(
      this.store,
      streamId,
      evolveApiToken,
      initialApiTokenState,
    );
    const events = decideApiToken(
      { type: 'RevokeToken', byUserId: command.byUserId, reason: command.reason, now: this.clock.now() },
      state,
    );
    if (events.length === 0) return;
    await this.store.append(
      streamId,
      events.map((event) => ({ ...event, eventId: command.eventId })),
      revision,
    );
  }
}
