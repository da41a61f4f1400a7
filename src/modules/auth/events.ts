import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the auth module appends. */
export const AuthEvents = defineEventCatalogue('auth', {
  TokenIssued: { schemaVersion: 1 },
  TokenRevoked: { schemaVersion: 1 },
  /** `lastUsedAt`, recorded at most once a minute per token. */
  TokenUsed: { schemaVersion: 1 },
  DeviceCodeIssued: { schemaVersion: 1 },
  DeviceCodeApproved: { schemaVersion: 1 },
  DeviceCodeRedeemed: { schemaVersion: 1 },
});
