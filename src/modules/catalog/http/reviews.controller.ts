import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, OptionalPrincipal, OptionalToken, Principal, RequireScope } from '../../../platform/http/access';
import { OK, Ok } from '../../../platform/http/responses';
import { PostReviewCommand } from '../commands/post-review/post-review.command';
import { PostReviewDto } from '../commands/post-review/post-review.dto';
import { ReplyToReviewCommand } from '../commands/reply-to-review/reply-to-review.command';
import { ReplyDto } from '../commands/reply-to-review/reply-to-review.dto';
import { VoteOnReviewCommand } from '../commands/vote-on-review/vote-on-review.command';
import { VoteDto } from '../commands/vote-on-review/vote-on-review.dto';
import { GetReviewQuery } from '../queries/get-review/get-review.query';
import { ReviewPageDto } from '../queries/list-reviews/list-reviews.dto';
import { ListReviewsQuery } from '../queries/list-reviews/list-reviews.query';
import { PostedReview, Reviews } from './reviews.responses';

@ApiTags('listings')
@Controller('v1/listings/:vendor/:slug/reviews')
export class ReviewsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
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
    return this.queries.execute(
      new ListReviewsQuery(vendor, slug, viewer?.userId ?? null, query.page ?? 1, query.per_page ?? 20),
    );
  }

  /** Creates (201) or updates (200) the caller's review; one per user and listing. */
  @Post()
  @ApiBearerAuth()
  @RequireScope('read')
  @ApiCreatedResponse({ type: PostedReview, description: 'The review was created' })
  @ApiOkResponse({ type: PostedReview, description: "The caller's review was edited" })
  async post(
    @CurrentPrincipal() principal: Principal,
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @Body() body: PostReviewDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PostedReview> {
    const { reviewId, created } = await this.commands.execute(
      new PostReviewCommand(principal.userId, vendor, slug, body.rating, body.body ?? ''),
    );
    await this.waiter.catchUpWithThisRequest();
    void reply.status(created ? 201 : 200);
    return { review: await this.queries.execute(new GetReviewQuery(reviewId)) };
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
    await this.commands.execute(new VoteOnReviewCommand(principal.userId, vendor, slug, id, body.helpful));
    await this.waiter.catchUpWithThisRequest();
    return OK;
  }
}

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/reviews')
export class VendorReviewsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly waiter: ProjectionWaiter,
  ) {}

  /** Replies to a review of one of the caller's listings (a second reply replaces the first). */
  @Post(':id/reply')
  @HttpCode(200)
  @ApiOkResponse({ type: Ok })
  async reply(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: ReplyDto): Promise<Ok> {
    await this.commands.execute(new ReplyToReviewCommand(principal.userId, id, body.body));
    await this.waiter.catchUpWithThisRequest();
    return OK;
  }
}
