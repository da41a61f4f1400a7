import { Command } from '@nestjs/cqrs';

/** A top-up's payment failed (a processor event, or a declined off-session charge). */
export class FailTopUpCommand extends Command<void> {
  constructor(
    readonly topUpId: string | null,
    readonly paymentIntentId: string | null,
    readonly processorEventId: string | null,
    readonly reason: string,
  ) {
    super();
  }
}
