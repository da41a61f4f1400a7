import { Command } from '@nestjs/cqrs';

/** A processor webhook delivery: the raw bytes, because the signature covers exactly them. */
export class ReceivePaymentEventCommand extends Command<void> {
  constructor(
    readonly rawBody: Buffer | undefined,
    readonly signature: string | undefined,
  ) {
    super();
  }
}
