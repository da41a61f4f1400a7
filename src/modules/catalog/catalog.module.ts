import { Module } from '@nestjs/common';
import { PublishReleaseService } from './commands/publish-release/publish-release.service';
import { ReviewsService } from './commands/review-listing/reviews.service';
import { UpdateListingService } from './commands/update-listing/update-listing.service';
import { UploadReleaseService } from './commands/upload-release/upload-release.service';
import { AuditsController } from './http/audits.controller';
import { LeaderboardController } from './http/leaderboard.controller';
import { ListingsController } from './http/listings.controller';
import { ReviewsController, VendorReviewsController } from './http/reviews.controller';
import { SearchController } from './http/search.controller';
import { VendorListingsController } from './http/vendor-listings.controller';
import { VendorReleasesController } from './http/vendor-releases.controller';
import { AuditsQuery } from './queries/audits';
import { CatalogVendors } from './queries/catalog-vendors';
import { LeaderboardQuery } from './queries/leaderboard';
import { ListingRecords } from './queries/listing-records';
import { ReviewRecords } from './queries/review-records';
import { ListingSearch } from './queries/search/listing-search';
import { SearchCache } from './queries/search/search-cache';
import { CatalogProjection } from './read-models/catalog.projection';
import { SearchHistoryPruning } from './read-models/search-history-pruning';
import { ReleaseScanWorker } from './scanning/release-scan.worker';
import './events'; // declares the module's event types before anything appends them

const commands = [UploadReleaseService, PublishReleaseService, UpdateListingService, ReviewsService];
const queries = [ListingRecords, CatalogVendors, ListingSearch, SearchCache, LeaderboardQuery, AuditsQuery, ReviewRecords];
/** The worker that runs scans; the saga that queues them lives in src/sagas/release-scan. */
const scanning = [ReleaseScanWorker];

/** The catalog: listings and releases with their security scans, search, reviews, the leaderboard and audits. */
@Module({
  controllers: [
    SearchController,
    ListingsController,
    ReviewsController,
    VendorReviewsController,
    LeaderboardController,
    AuditsController,
    VendorReleasesController,
    VendorListingsController,
  ],
  providers: [...commands, ...queries, CatalogProjection, SearchHistoryPruning, ...scanning],
})
export class CatalogModule {}
