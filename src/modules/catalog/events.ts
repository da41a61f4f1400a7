import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the catalog module appends. */
export const CatalogEvents = defineEventCatalogue('catalog', {
  ListingCreated: { schemaVersion: 1 },
  ListingUpdated: { schemaVersion: 1 },
  /** Listing address uniqueness: the reservation stream per vendor and slug. */
  ListingSlugReserved: { schemaVersion: 1 },
  ReleaseUploaded: { schemaVersion: 1 },
  ReleaseScanned: { schemaVersion: 1 },
  ReleasePublishRequested: { schemaVersion: 1 },
  ReleasePublished: { schemaVersion: 1 },
  ReviewPosted: { schemaVersion: 1 },
  ReviewEdited: { schemaVersion: 1 },
  ReviewVoted: { schemaVersion: 1 },
  ReviewReplied: { schemaVersion: 1 },
  InstallRecorded: { schemaVersion: 1 },
  /** An org package's visibility: `public`, `private` or `org_only`. */
  ListingVisibilityChanged: { schemaVersion: 1 },
});
