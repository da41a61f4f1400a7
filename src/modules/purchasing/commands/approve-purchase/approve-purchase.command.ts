import { Command } from '@nestjs/cqrs';
import { PurchaseAnswer } from '../purchase/purchase.command';

/** The policy's owner approves a purchase its agent asked for: it executes once, on the original terms. */
export class ApprovePurchaseCommand extends Command<PurchaseAnswer> {
  constructor(
    readonly approvalId: string,
    readonly ownerId: string,
    /** The approving token's own policy: a bound token may never approve (an agent approving its own spending). */
    readonly approverPolicyId: string | null,
  ) {
    super();
  }
}

/** The policy's owner declines. */
export class DeclinePurchaseCommand extends Command<void> {
  constructor(
    readonly approvalId: string,
    readonly ownerId: string,
    readonly approverPolicyId: string | null,
  ) {
    super();
  }
}
