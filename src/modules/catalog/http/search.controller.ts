import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../platform/http/access';
import { SearchParamsDto } from '../queries/search-listings/search-listings.dto';
import { SearchListingsQuery } from '../queries/search-listings/search-listings.query';
import { SearchResponse } from './search.responses';

@ApiTags('search')
@Public()
@Controller('v1/search')
export class SearchController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: SearchResponse })
  search(@Query() params: SearchParamsDto): Promise<SearchResponse> {
    return this.queries.execute(new SearchListingsQuery({ ...params }));
  }
}
