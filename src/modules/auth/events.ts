import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the auth module appends. */
export const AuthEvents = defineEventCatalogue('auth', {
  TokenIssued: { schemaVersion: 1 },
  TokenRevoked: { schemaVersion: 1 },
  /** `lastUsedAt`, recorded at most once a minute per token. */
  TokenUsed: { schemaVersion: 1 },
  /** v2 records the name the client gave (or null); v1 codes were started by clients that gave none. */
  DeviceCodeIssued: { schemaVersion: 2, upcast: (data) => ({ clientName: null, ...data }) },
  /** v2 records the scopes and lifetime the approver could grant; v1 approvals granted every scope with no cap. */
  DeviceCodeApproved: {
    schemaVersion: 2,
    upcast: (data) => ({ scopes: ['read', 'purchase', 'download', 'sell'], notAfter: null, ...data }),
  },
  DeviceCodeRedeemed: { schemaVersion: 1 },
  /** The signed-in person refused the sign-in: final, polls answer `denied`. */
  DeviceCodeDenied: { schemaVersion: 1 },
});
