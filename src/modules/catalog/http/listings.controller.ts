import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OptionalPrincipal, OptionalToken, Principal } from '../../../platform/http/access';
import { GetListingQuery } from '../queries/get-listing/get-listing.query';
import { ListReleasesQuery } from '../queries/list-releases/list-releases.query';
import { Listing, PublishedReleases } from './listings.responses';

/** Public listing pages. A vendor sending its token also sees its own drafts. */
@ApiTags('listings')
@OptionalToken()
@Controller('v1/listings/:vendor/:slug')
export class ListingsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: Listing })
  get(
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @OptionalPrincipal() viewer: Principal | null,
  ): Promise<Listing> {
    return this.queries.execute(GetListingQuery.byPath(vendor, slug, viewer?.userId ?? null));
  }

  @Get('releases')
  @ApiOkResponse({ type: PublishedReleases })
  async releases(
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @OptionalPrincipal() viewer: Principal | null,
  ): Promise<PublishedReleases> {
    return { releases: await this.queries.execute(new ListReleasesQuery(vendor, slug, viewer?.userId ?? null)) };
  }
}
