import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { UpdateListingDto } from '../commands/update-listing/update-listing.dto';
import { UpdateListingService } from '../commands/update-listing/update-listing.service';
import { ListingChanges } from '../domain/listing-fields';
import { CatalogVendors } from '../queries/catalog-vendors';
import { ListingRecords } from '../queries/listing-records';
import { Listing } from './catalog-responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/listings')
export class VendorListingsController {
  constructor(
    private readonly updates: UpdateListingService,
    private readonly vendors: CatalogVendors,
    private readonly listings: ListingRecords,
    private readonly waiter: ProjectionWaiter,
  ) {}

  /** Changes any subset of the editable fields and returns the whole listing. */
  @Patch(':id')
  @ApiOkResponse({ type: Listing })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateListingDto,
  ): Promise<Listing> {
    await this.vendors.require(principal.userId);
    const changes = Object.fromEntries(Object.entries(body ?? {}).filter(([, value]) => value !== undefined)) as ListingChanges;
    await this.updates.update(principal.userId, id, changes);
    await this.waiter.catchUpWithThisRequest();
    return this.listings.byId(id);
  }
}
