/** Frees a deleted user's email for a new account. Idempotent: `eventId` is derived from the deletion. */
export class ReleaseEmailCommand {
  constructor(
    readonly userId: string,
    readonly eventId: string,
  ) {}
}
