/** Changes the caller's name or avatar; `undefined` keeps a field, `null` clears it. */
export class ChangeProfileCommand {
  constructor(
    readonly userId: string,
    readonly change: { name?: string | null; avatarUrl?: string | null },
  ) {}
}
