import { Command } from '@nestjs/cqrs';

/** The processor says an intent was paid: credit the top-up it funds, once. */
export class SettleTopUpCommand extends Command<void> {
  constructor(
    readonly processorEventId: string,
    readonly paymentIntentId: string,
    /** From the intent's metadata; absent when the intent is not one of ours. */
    readonly topUpId: string | null,
    /** What the processor reports, kept on an unmatched payment; a match credits our own record's amount. */
    readonly amountCents: number,
  ) {
    super();
  }
}
