import { EventStore } from '../event-store/event-store';
import { orgSlugStreamId } from '../modules/orgs/domain/org.decider';
import { OrgEvents } from '../modules/orgs/events';
import { emailStreamId } from '../modules/users/domain/email-reservation';
import { userStreamId } from '../modules/users/domain/user.decider';
import { UserEvents } from '../modules/users/events';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class LedgerUsageError extends Error {}

/** A user as the log tells it. Personal fields are null once the account is deleted (its key shredded). */
export interface UserOnRecord {
  id: string;
  email: string | null;
  name: string | null;
  deleted: boolean;
}

/**
 * `--user` takes an id or an email. An email is looked up in its reservation
 * stream (named by the address's hash), so a deleted account, whose address
 * was released, is found by id only.
 */
export async function resolveUser(store: EventStore, emailOrId: string): Promise<UserOnRecord> {
  let id = emailOrId;
  if (!UUID.test(emailOrId)) {
    const reservation = await store.readStream(emailStreamId(emailOrId));
    const last = reservation[reservation.length - 1];
    if (!last || last.type !== UserEvents.EmailReserved) throw new LedgerUsageError(`no user has the email ${emailOrId}`);
    id = String(last.data.userId);
  }
  const events = await store.readStream(userStreamId(id.toLowerCase()));
  if (events.length === 0) throw new LedgerUsageError(`no user ${id}`);
  const user: UserOnRecord = { id: id.toLowerCase(), email: null, name: null, deleted: false };
  for (const event of events) {
    if (event.type === UserEvents.UserRegistered) {
      user.email = (event.data.email as string | null) ?? null;
      user.name = (event.data.name as string | null) ?? null;
    } else if (event.type === UserEvents.UserProfileChanged && event.data.name !== undefined) {
      user.name = (event.data.name as string | null) ?? null;
    } else if (event.type === UserEvents.UserDeleted) {
      user.deleted = true;
    }
  }
  // A replay never brings back what deletion erased, whatever the vault answered.
  if (user.deleted) Object.assign(user, { email: null, name: null });
  return user;
}

/**
 * `--org` takes an org's slug or id. A slug is read from its reservation
 * stream (`org-slug-<slug>`, never released), so a deleted org is still found.
 */
export async function resolveOrgId(store: EventStore, slugOrId: string): Promise<string> {
  if (UUID.test(slugOrId)) return slugOrId.toLowerCase();
  const [reservation] = await store.readStream(orgSlugStreamId(slugOrId.toLowerCase()), { maxCount: 1 });
  if (!reservation || reservation.type !== OrgEvents.OrgSlugReserved) throw new LedgerUsageError(`no organization ${slugOrId}`);
  return String(reservation.data.orgId);
}
