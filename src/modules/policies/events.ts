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
   * purchase, so a retried append records nothing twice.
   */
  PolicySpendRecorded: { schemaVersion: 1 },
});
