import { Command } from '@nestjs/cqrs';

/** What an `account.updated` event reported about a vendor's connected account. */
export class RecordAccountStatusCommand extends Command<void> {
  constructor(
    readonly vendorId: string,
    readonly accountId: string,
    readonly chargesEnabled: boolean,
    readonly detailsSubmitted: boolean,
    readonly processorEventId: string,
    /** When the processor created the event. */
    readonly reportedAt: string,
  ) {
    super();
  }
}
