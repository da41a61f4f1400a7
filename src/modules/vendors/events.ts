import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the vendors module appends. */
export const VendorEvents = defineEventCatalogue('vendors', {
  VendorProfileSaved: { schemaVersion: 1 },
  /** Slug uniqueness: the reservation stream per slug; a slug is never released. */
  VendorSlugReserved: { schemaVersion: 1 },
  VendorDomainChallengeIssued: { schemaVersion: 1 },
  VendorDomainVerified: { schemaVersion: 1 },
  VendorDomainVerificationLapsed: { schemaVersion: 1 },
  VendorGithubVerificationStarted: { schemaVersion: 1 },
  VendorGithubVerified: { schemaVersion: 1 },
  VendorGithubVerificationFailed: { schemaVersion: 1 },
  VendorGithubVerificationLapsed: { schemaVersion: 1 },
  SigningKeyRegistered: { schemaVersion: 1 },
  SigningKeyRotated: { schemaVersion: 1 },
  SigningKeyRevoked: { schemaVersion: 1 },
  /** One vendor per key: the reservation stream per fingerprint. */
  SigningKeyFingerprintReserved: { schemaVersion: 1 },
});
