import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, OptionalPrincipal, OptionalToken, Principal, RequireScope } from '../../../platform/http/access';
import { PostReviewDto, ReplyDto, ReviewPageDto, VoteDto } from '../commands/review-listing/review.dto';
import { ReviewsService } from '../commands/review-listing/reviews.service';
import { CatalogVendors } from '../queries/catalog-vendors';
import { ReviewRecords } from '../queries/review-records';
import { Ok } from './catalog-responses';

class ReviewReply {
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

class Review {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ minimum: 1, maximum: 5 }) rating: number;
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty() helpfulCount: number;
  @ApiProperty({ type: ReviewReply, nullable: true }) reply: ReviewReply | null;
}

class Reviews {
  /** Newest first. */
  @ApiProperty({ type: [Review] }) reviews: Review[];
  /** The average rating, 0 without reviews. */
  @ApiProperty() rating: number;
  @ApiProperty() ratingCount: number;
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() perPage: number;
}

class PostedReview {
  @ApiProperty({ type: Review }) review: Review;
}

@ApiTags('listings')
@Controller('v1/listings/:vendor/:slug/reviews')
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly records: ReviewRecords,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @OptionalToken()
  @ApiOkResponse({ type: Reviews })
  list(
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @Query() query: ReviewPageDto,
    @OptionalPrincipal() viewer: Principal | null,
  ): Promise<Reviews> {
    return this.records.forListing(vendor, slug, viewer?.userId ?? null, query.page ?? 1, query.per_page ?? 20);
  }

  /** Creates (201) or updates (200) the caller's review; one per user and listing. */
  @Post()
  @ApiBearerAuth()
  @RequireScope('read')
  @ApiOkResponse({ type: PostedReview })
  async post(
    @CurrentPrincipal() principal: Principal,
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @Body() body: PostReviewDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PostedReview> {
    const { reviewId, created } = await this.reviews.post(principal.userId, vendor, slug, body.rating, body.body ?? '');
    await this.waiter.catchUpWithThisRequest();
    void reply.status(created ? 201 : 200);
    return { review: await this.records.byId(reviewId) };
  }

  @Post(':id/vote')
  @HttpCode(200)
  @ApiBearerAuth()
  @RequireScope('read')
  @ApiOkResponse({ type: Ok })
  async vote(
    @CurrentPrincipal() principal: Principal,
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Body() body: VoteDto,
  ): Promise<Ok> {
    await this.reviews.vote(principal.userId, vendor, slug, id, body.helpful);
    await this.waiter.catchUpWithThisRequest();
    return { ok: true };
  }
}

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/reviews')
export class VendorReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly vendors: CatalogVendors,
    private readonly waiter: ProjectionWaiter,
  ) {}

  /** Replies to a review of one of the caller's listings (a second reply replaces the first). */
  @Post(':id/reply')
  @HttpCode(200)
  @ApiOkResponse({ type: Ok })
  async reply(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: ReplyDto): Promise<Ok> {
    await this.vendors.require(principal.userId);
    await this.reviews.reply(principal.userId, id, body.body);
    await this.waiter.catchUpWithThisRequest();
    return { ok: true };
  }
}
