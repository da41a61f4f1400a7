/** Registers an account; answers its id. */
export class RegisterUserCommand {
  constructor(
    readonly email: string,
    readonly name: string | null,
  ) {}
}
