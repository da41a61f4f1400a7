import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OptionalPrincipal, OptionalToken, Principal } from '../../../platform/http/access';
import { ListingRecords } from '../queries/listing-records';
import { Listing, PublishedReleases } from './catalog-responses';

/** Public listing pages. A vendor sending its token also sees its own drafts. */
@ApiTags('listings')
@OptionalToken()
@Controller('v1/listings/:vendor/:slug')
export class ListingsController {
  constructor(private readonly listings: ListingRecords) {}

  @Get()
  @ApiOkResponse({ type: Listing })
  get(
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @OptionalPrincipal() viewer: Principal | null,
  ): Promise<Listing> {
    return this.listings.byPath(vendor, slug, viewer?.userId ?? null);
  }

  @Get('releases')
  @ApiOkResponse({ type: PublishedReleases })
  async releases(
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @OptionalPrincipal() viewer: Principal | null,
  ): Promise<PublishedReleases> {
    return { releases: await this.listings.releases(vendor, slug, viewer?.userId ?? null) };
  }
}
