import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { RevokeTokenCommand } from '../../modules/auth/commands/revoke-token/revoke-token.command';
import { AuthEvents } from '../../modules/auth/events';
import { ReleaseEmailCommand } from '../../modules/users/commands/release-email/release-email.command';
import { ShredPersonalDataCommand } from '../../modules/users/commands/shred-personal-data/shred-personal-data.command';
import { UserEvent } from '../../modules/users/domain/user.decider';
import { UserEvents } from '../../modules/users/events';
import { derivedId } from '../../platform/ids';
import { AsProcessManager } from '../../projections/runner/processor';
import { Reaction, Saga } from '../kit/saga';

/**
 * Completes an account deletion: revokes every token the deletion names, frees
 * the email, then destroys the personal-data key. Each step is idempotent, so
 * a crash anywhere means the redelivered UserDeleted finishes the job. The
 * email goes before the key, because freeing it needs to read the address.
 */
@Injectable()
@AsProcessManager()
export class UserDeletionSaga extends Saga {
  readonly name = 'user-deletion';
  readonly eventTypes = [UserEvents.UserDeleted];

  constructor(commands: CommandBus) {
    super(commands);
  }

  react(event: RecordedEvent): Reaction {
    const { data } = event as unknown as Extract<UserEvent, { type: 'UserDeleted' }>;
    return {
      commands: [
        ...data.tokenIds.map(
          (tokenId) =>
            new RevokeTokenCommand(
              tokenId,
              data.userId,
              'user_deleted',
              derivedId(AuthEvents.TokenRevoked, event.eventId, tokenId),
            ),
        ),
        new ReleaseEmailCommand(data.userId, derivedId(UserEvents.EmailReleased, event.eventId)),
        new ShredPersonalDataCommand(data.userId),
      ],
      jobs: [],
    };
  }
}
