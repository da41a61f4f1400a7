/** A signed-in person refuses the sign-in a CLI started, by the user code it shows. */
export class DenyDeviceCodeCommand {
  constructor(
    readonly userCode: string,
    readonly userId: string,
  ) {}
}
