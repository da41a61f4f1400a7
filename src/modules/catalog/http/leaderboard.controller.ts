import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../platform/http/access';
import { LeaderboardParamsDto } from '../queries/get-leaderboard/get-leaderboard.dto';
import { GetLeaderboardQuery } from '../queries/get-leaderboard/get-leaderboard.query';
import { LeaderboardResponse } from './leaderboard.responses';

/**
 * Public rankings. `all`: Bayesian average rating (few reviews pull toward the
 * catalog mean), then installs; `trending`: installs over the last 7 days, then
 * all-time installs; `hot`: installs over the last 24 hours, then over 7 days,
 * then all-time. Ties end on the listing id.
 */
@ApiTags('leaderboard')
@Public()
@Controller('v1/leaderboard')
export class LeaderboardController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: LeaderboardResponse })
  rank(@Query() params: LeaderboardParamsDto): Promise<LeaderboardResponse> {
    return this.queries.execute(new GetLeaderboardQuery({ ...params }));
  }
}
