import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { emailStreamId } from '../../domain/email-reservation';
import { userStreamId } from '../../domain/user.decider';
import { UserEvents } from '../../events';
import { ReleaseEmailCommand } from './release-email.command';

@CommandHandler(ReleaseEmailCommand)
export class ReleaseEmailHandler implements ICommandHandler<ReleaseEmailCommand, void> {
  constructor(private readonly store: EventStore) {}

  async execute({ userId, eventId }: ReleaseEmailCommand): Promise<void> {
    const [registered] = await this.store.readStream(userStreamId(userId), { maxCount: 1 });
    // Null once the personal-data key is shredded, which the saga does only after this step succeeded.
    const email = registered?.type === UserEvents.UserRegistered ? (registered.data.email as string | null) : null;
    if (!email) return;
    const reservationId = emailStreamId(email);
    const reservation = await this.store.readStream(reservationId);
    const holder = [...reservation].reverse().find((e) => e.type === UserEvents.EmailReserved);
    if (holder?.data.userId !== userId) return;
    // A stored id makes a repeated release a no-op, even after someone else has reserved the address again.
    await this.store.append(reservationId, [{ eventId, type: UserEvents.EmailReleased, data: { userId } }], 'any');
  }
}
