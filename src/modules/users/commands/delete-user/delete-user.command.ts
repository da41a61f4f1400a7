/**
 * Deletes an account. The decision is one event, UserDeleted; the
 * user-deletion saga then revokes every token, frees the email and destroys
 * the personal-data key, each step idempotent, so a crash never stops halfway.
 */
export class DeleteUserCommand {
  constructor(readonly userId: string) {}
}
