import { Query } from '@nestjs/cqrs';

export interface PublishedRelease {
  id: string;
  version: string;
  archiveSha256: string;
  publishedAt: string;
}

/** A listing's published releases, highest version first; the listing's visibility rules apply. */
export class ListReleasesQuery extends Query<PublishedRelease[]> {
  constructor(
    readonly vendorSlug: string,
    readonly slug: string,
    readonly viewerId: string | null,
  ) {
    super();
  }
}
