import { defineEventCatalogue } from '../../event-store/event-catalogue';

/**
 * Every event type the policies module appends, all on the policy's own
 * stream `policy-<policyId>`. The owner (`{kind, id}`) travels in the
 * lifecycle events, so org policies need no new event shapes.
 */
export const PolicyEvents = defineEventCatalogue('policies', {
  SpendPolicyCreated: { schemaVersion: 1 },
  /** Carries the whole policy after the change, and which fields changed. */
  SpendPolicyUpdated: { schemaVersion: 1 },
  SpendPolicyDeleted: { schemaVersion: 1 },
  /**
   * A purchase made under the policy, appended in the purchase's own atomic
   * append at the revision the policy was read at; its id derives from the
   * purchase, so a retried append records nothing twice. Version 2 says
   * whether the purchase's payment may still fail (`provisional`: a card
   * payment the processor has not confirmed); version 1 spends were all taken
   * as final, and stay so.
   */
  PolicySpendRecorded: { schemaVersion: 2, upcast: (data) => ({ provisional: false, ...data }) },
  /**
   * A provisional spend given back because its purchase's payment failed:
   * the amount it recorded, taken from the UTC day and month it was counted
   * in. Appended with the order's failure, in one atomic append.
   */
  PolicySpendReleased: { schemaVersion: 1 },
  /** A provisional spend whose payment the processor confirmed: final now, nothing left to give back. */
  PolicySpendSettled: { schemaVersion: 1 },
});
