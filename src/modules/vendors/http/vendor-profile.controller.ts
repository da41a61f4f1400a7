import { Body, Controller, Get, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { SaveVendorProfileCommand } from '../commands/save-vendor-profile/save-vendor-profile.command';
import { SaveVendorProfileDto } from '../commands/save-vendor-profile/save-vendor-profile.dto';
import { GetVendorProfileQuery, VendorProfileView } from '../queries/get-vendor-profile/get-vendor-profile.query';
import { OrgsReader } from '../../orgs/read-models/orgs.reader';
import { VendorProfile } from './vendor-profile.responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/profile')
export class VendorProfileController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly waiter: ProjectionWaiter,
    private readonly orgs: OrgsReader,
  ) {}

  /** Creates (201) or updates (200) the caller's vendor profile; an omitted bio or website keeps its value, null clears it. */
  @Post()
  @ApiCreatedResponse({ type: VendorProfile, description: 'The profile was created' })
  @ApiOkResponse({ type: VendorProfile, description: 'The profile was updated' })
  async save(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SaveVendorProfileDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VendorProfile> {
    const orgId =
      body.orgSlug === undefined
        ? undefined
        : (
            await this.orgs.membershipAtLeast(
              body.orgSlug,
              principal.userId,
              'admin',
              'Only an org admin or owner can link a vendor profile to the org',
            )
          ).org.id;
    const { created } = await this.commands.execute(
      new SaveVendorProfileCommand(principal.userId, {
        slug: body.slug,
        displayName: body.displayName,
        bio: body.bio,
        website: body.website,
        orgId,
      }),
    );
    // The answer is read from the projection, so it must have applied the save first.
    await this.waiter.catchUpWithThisRequest();
    void reply.status(created ? 201 : 200);
    return publicProfile(await this.queries.execute(new GetVendorProfileQuery(principal.userId)));
  }

  @Get()
  @ApiOkResponse({ type: VendorProfile })
  async get(@CurrentPrincipal() principal: Principal): Promise<VendorProfile> {
    return publicProfile(await this.queries.execute(new GetVendorProfileQuery(principal.userId)));
  }
}

function publicProfile({ id: _id, ...profile }: VendorProfileView): VendorProfile {
  return profile;
}
