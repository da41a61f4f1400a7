/** A signed-in person approves the sign-in a CLI started, by the user code it shows. */
export class ApproveDeviceCodeCommand {
  constructor(
    readonly userCode: string,
    readonly userId: string,
  ) {}
}
