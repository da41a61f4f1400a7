import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the users module appends. */
export const UserEvents = defineEventCatalogue('users', {
  UserRegistered: { schemaVersion: 1 },
  UserProfileChanged: { schemaVersion: 1 },
  /** On the user's stream, so issuing a token and deleting the account are decided in one order. */
  UserTokenGranted: { schemaVersion: 1 },
  UserDeleted: { schemaVersion: 1 },
  /** Email uniqueness: the reservation stream `email-<sha256>`. */
  EmailReserved: { schemaVersion: 1 },
  EmailReleased: { schemaVersion: 1 },
});
