import { Command } from '@nestjs/cqrs';
import { CallOutcome } from '../../domain/service-call.decider';

/**
 * Settles a reservation nobody settled by its settle-by time (the process
 * making the call died): released and refunded as `abandoned`. Answers the
 * call's outcome; a call settled already is left as it is.
 */
export class ResolveServiceCallCommand extends Command<CallOutcome | null> {
  constructor(readonly callId: string) {
    super();
  }
}
