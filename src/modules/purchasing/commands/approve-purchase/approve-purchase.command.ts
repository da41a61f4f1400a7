import { Command } from '@nestjs/cqrs';
import { PurchaseAnswer } from '../purchase/purchase.command';

/** The policy's owner approves a purchase its agent asked for: it executes once, on the original terms. */
export class ApprovePurchaseCommand extends Command<PurchaseAnswer> {
  constructor(
    readonly approvalId: string,
    readonly ownerId: string,
  ) {
    super();
  }
}

/** The policy's owner declines. */
export class DeclinePurchaseCommand extends Command<void> {
  constructor(
    readonly approvalId: string,
    readonly ownerId: string,
  ) {
    super();
  }
}
