import { Command } from '@nestjs/cqrs';

/** The vendor's reply to a review of one of its listings; a second reply replaces the first. */
export class ReplyToReviewCommand extends Command<void> {
  constructor(
    readonly vendorId: string,
    readonly reviewId: string,
    readonly body: string,
  ) {
    super();
  }
}
