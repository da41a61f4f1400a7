import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { PersonalDataVault } from '../../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { EMAIL_PATTERN, emailStreamId } from '../../domain/email-reservation';
import { decideUser, initialUserState, userStreamId, validUserName } from '../../domain/user.decider';
import { UserEvents } from '../../events';
import { RegisterUserCommand } from './register-user.command';

@CommandHandler(RegisterUserCommand)
export class RegisterUserHandler implements ICommandHandler<RegisterUserCommand, string> {
  constructor(
    private readonly store: EventStore,
    private readonly vault: PersonalDataVault,
    private readonly clock: Clock,
  ) {}

  async execute({ email, name }: RegisterUserCommand): Promise<string> {
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address) || address.length > 254) throw new DomainError('invalid', 'email must be a valid address');
    const reservationId = emailStreamId(address);
    const reservation = await this.store.readStream(reservationId);
    if (reservation[reservation.length - 1]?.type === UserEvents.EmailReserved)
      throw new DomainError('conflict', 'An account with this email exists');
    const userId = randomUUID();
    const events = decideUser(
      {
        type: 'RegisterUser',
        userId,
        email: await this.vault.seal(userId, address),
        name: name === null ? null : await this.vault.seal(userId, validUserName(name)),
        emailVerified: false,
        now: this.clock.now(),
      },
      initialUserState,
    );
    // The reservation's expected revision lets one of two racing registrations win.
    await this.store.appendAtomically([
      { streamId: userStreamId(userId), events, expected: 'no_stream' },
      {
        streamId: reservationId,
        events: [{ type: UserEvents.EmailReserved, data: { userId } }],
        expected: reservation.length === 0 ? 'no_stream' : reservation.length - 1,
      },
    ]);
    return userId;
  }
}
