import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UsersService } from './users.service';

/** Registers an account; answers its id. */
export class RegisterUserCommand {
  constructor(
    readonly email: string,
    readonly name: string | null,
  ) {}
}

@CommandHandler(RegisterUserCommand)
export class RegisterUserHandler implements ICommandHandler<RegisterUserCommand, string> {
  constructor(private readonly users: UsersService) {}

  execute(command: RegisterUserCommand): Promise<string> {
    return this.users.register(command.email, command.name);
  }
}
