/**
 * The account holding an email, registered first when there is none (operator
 * commands). Read from the reservation stream, not a read model, so it holds
 * even when no server is running projections.
 */
export class EnsureUserCommand {
  constructor(readonly email: string) {}
}
