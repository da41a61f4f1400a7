/** A download by a buyer: one per user, listing and day counts toward installs. */
export type InstallRecorded = { type: 'InstallRecorded'; data: { listingId: string; userId: string; recordedAt: string } };

export const installsStreamId = (listingId: string) => `installs-${listingId}`;
