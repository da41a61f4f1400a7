import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { emailStreamId } from '../../domain/email-reservation';
import { UserEvents } from '../../events';
import { RegisterUserCommand } from '../register-user/register-user.command';
import { EnsureUserCommand } from './ensure-user.command';

@CommandHandler(EnsureUserCommand)
export class EnsureUserHandler implements ICommandHandler<EnsureUserCommand, string> {
  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandBus,
  ) {}

  async execute({ email }: EnsureUserCommand): Promise<string> {
    const reservation = await this.store.readStream(emailStreamId(email));
    const last = reservation[reservation.length - 1];
    if (last?.type === UserEvents.EmailReserved) return last.data.userId as string;
    return this.commands.execute<RegisterUserCommand, string>(new RegisterUserCommand(email, null));
  }
}
