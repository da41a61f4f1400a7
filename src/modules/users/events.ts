import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the users module appends. */
export const UserEvents = defineEventCatalogue('users', {
  UserRegistered: { schemaVersion: 1 },
  UserProfileChanged: { schemaVersion: 1 },
  /** On the user's stream, so issuing a token and deleting the account are decided in one order. */
  UserTokenGranted: { schemaVersion: 1 },
  /** v2 names the tokens to revoke; v1 deletions revoked them on the spot, so they name none. */
  UserDeleted: { schemaVersion: 2, upcast: (data) => ({ tokenIds: [], ...data }) },
  /** Email uniqueness: the reservation stream `email-<sha256>`. */
  EmailReserved: { schemaVersion: 1 },
  EmailReleased: { schemaVersion: 1 },
});
