import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { UpdateListingCommand } from '../commands/update-listing/update-listing.command';
import { UpdateListingDto } from '../commands/update-listing/update-listing.dto';
import { ListingChanges } from '../domain/listing-fields';
import { GetListingQuery } from '../queries/get-listing/get-listing.query';
import { Listing } from './listings.responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/listings')
export class VendorListingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
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
    const changes = Object.fromEntries(Object.entries(body ?? {}).filter(([, value]) => value !== undefined)) as ListingChanges;
    await this.commands.execute(new UpdateListingCommand(principal.userId, id, changes));
    await this.waiter.catchUpWithThisRequest();
    return this.queries.execute(GetListingQuery.byId(id, principal.userId));
  }
}
