import { derivedId } from '../../../platform/ids';

/** A download by a buyer: one per user, listing and day counts toward installs. */
export type InstallRecorded = { type: 'InstallRecorded'; data: { listingId: string; userId: string; recordedAt: string } };

export const installsStreamId = (listingId: string) => `installs-${listingId}`;

/**
 * One install per user, listing and UTC day: the event's id is derived from
 * exactly those, so a second download that day (or a retried request)
 * re-appends a stored id, which the event store treats as a no-op.
 */
export const installIdFor = (userId: string, listingId: string, at: Date): string =>
  derivedId('InstallRecorded', userId, listingId, at.toISOString().slice(0, 10));
