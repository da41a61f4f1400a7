/** Destroys a user's personal-data key: every copy of their email, name and avatar in the log reads back as null. */
export class ShredPersonalDataCommand {
  constructor(readonly userId: string) {}
}
