import { Module } from '@nestjs/common';
import { OrgsModule } from '../orgs/orgs.module';
import { ChangeVisibilityHandler } from './commands/change-visibility/change-visibility.handler';
import { OrgPackagesController } from './http/org-packages.controller';
import { PostReviewHandler } from './commands/post-review/post-review.handler';
import { RecordInstallHandler } from './commands/record-install/record-install.handler';
import { PublishReleaseHandler } from './commands/publish-release/publish-release.handler';
import { ReplyToReviewHandler } from './commands/reply-to-review/reply-to-review.handler';
import { UpdateListingHandler } from './commands/update-listing/update-listing.handler';
import { UploadReleaseHandler } from './commands/upload-release/upload-release.handler';
import { VoteOnReviewHandler } from './commands/vote-on-review/vote-on-review.handler';
import { AuditsController } from './http/audits.controller';
import { LeaderboardController } from './http/leaderboard.controller';
import { ListingsController } from './http/listings.controller';
import { ReviewsController, VendorReviewsController } from './http/reviews.controller';
import { SearchController } from './http/search.controller';
import { VendorListingsController } from './http/vendor-listings.controller';
import { VendorReleasesController } from './http/vendor-releases.controller';
import { GetCatalogVendorHandler } from './queries/get-catalog-vendor/get-catalog-vendor.handler';
import { GetLeaderboardHandler } from './queries/get-leaderboard/get-leaderboard.handler';
import { GetPurchaseTermsHandler } from './queries/get-purchase-terms/get-purchase-terms.handler';
import { GetListingHandler } from './queries/get-listing/get-listing.handler';
import { GetReleaseTermsHandler } from './queries/get-release-terms/get-release-terms.handler';
import { GetReviewHandler } from './queries/get-review/get-review.handler';
import { ListAuditsHandler } from './queries/list-audits/list-audits.handler';
import { ListReleasesHandler } from './queries/list-releases/list-releases.handler';
import { ListReviewsHandler } from './queries/list-reviews/list-reviews.handler';
import { ListVendorListingsHandler } from './queries/list-vendor-listings/list-vendor-listings.handler';
import { SearchCache } from './queries/search-listings/search-cache';
import { SearchListingsHandler } from './queries/search-listings/search-listings.handler';
import { CatalogProjection } from './read-models/catalog.projection';
import { CatalogVendorsReader } from './read-models/catalog-vendors.reader';
import { ListingsReader } from './read-models/listings.reader';
import { ReviewsReader } from './read-models/reviews.reader';
import { SearchHistoryPruning } from './read-models/search-history-pruning';
import { ReleaseScanWorker } from './scanning/release-scan.worker';
import './events'; // declares the module's event types before anything appends them

const controllers = [
  OrgPackagesController,
  SearchController,
  ListingsController,
  ReviewsController,
  VendorReviewsController,
  LeaderboardController,
  AuditsController,
  VendorReleasesController,
  VendorListingsController,
];
const commandHandlers = [
  ChangeVisibilityHandler,
  UploadReleaseHandler,
  PublishReleaseHandler,
  UpdateListingHandler,
  PostReviewHandler,
  VoteOnReviewHandler,
  ReplyToReviewHandler,
  RecordInstallHandler,
];
const queryHandlers = [
  SearchListingsHandler,
  GetListingHandler,
  ListReleasesHandler,
  ListReviewsHandler,
  GetReviewHandler,
  GetLeaderboardHandler,
  ListAuditsHandler,
  GetCatalogVendorHandler,
  GetPurchaseTermsHandler,
  GetReleaseTermsHandler,
  ListVendorListingsHandler,
];
const projections = [CatalogProjection];
/** SQL the module's handlers share, and the search result cache keyed on the catalog projection's progress. */
const readers = [CatalogVendorsReader, ListingsReader, ReviewsReader, SearchCache];
/** Background jobs; the saga that queues scans lives in src/sagas/release-scan. */
const workers = [ReleaseScanWorker, SearchHistoryPruning];

/** The catalog: listings and releases with their security scans, search, reviews, the leaderboard and audits. */
@Module({
  imports: [OrgsModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...readers, ...workers],
  // Every read of a listing for someone goes through it, the agent network's included.
  exports: [ListingsReader],
})
export class CatalogModule {}
