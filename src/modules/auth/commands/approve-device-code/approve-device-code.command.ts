import { Principal } from '../../../../platform/http/access';

/** A signed-in person approves the sign-in a CLI started, by the user code it shows. */
export class ApproveDeviceCodeCommand {
  constructor(
    readonly userCode: string,
    /** The approving credential: the sign-in gets no scope it lacks and does not outlive it. */
    readonly approver: Principal,
  ) {}
}
