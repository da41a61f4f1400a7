import { Command } from '@nestjs/cqrs';
import { SpendToRecord } from '../../domain/spend-policy.decider';

export interface RecordedPolicySpend {
  /** False when there was nothing to count: a free listing, or an approved purchase under a policy that is gone. */
  recorded: boolean;
  /** The policy's spend in the UTC day and month of the purchase, this purchase included. */
  spentTodayCents: number;
  spentThisMonthCents: number;
}

/**
 * Records a purchase against a policy on its own, deciding again when another
 * purchase got there first; over a limit (unapproved) it is refused with 402
 * `approval_required`. A purchase that appends other streams too should use
 * PolicyLedger instead, to record the spend in the purchase's own atomic append.
 */
export class RecordPolicySpendCommand extends Command<RecordedPolicySpend> {
  constructor(
    readonly policyId: string,
    readonly spend: Omit<SpendToRecord, 'now'>,
  ) {
    super();
  }
}
