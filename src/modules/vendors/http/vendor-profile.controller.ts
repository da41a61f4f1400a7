import { Body, Controller, Get, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { VendorProfileService } from '../commands/vendor-profile.service';
import { VendorDirectory, VendorProfileView } from '../queries/vendor-directory';
import { SaveVendorProfileDto } from './vendor-profile.dto';
import { VendorProfile } from './vendor-responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/profile')
export class VendorProfileController {
  constructor(
    private readonly profiles: VendorProfileService,
    private readonly directory: VendorDirectory,
    private readonly waiter: ProjectionWaiter,
  ) {}

  /** Creates (201) or updates (200) the caller's vendor profile; an omitted bio or website keeps its value, null clears it. */
  @Post()
  @ApiOkResponse({ type: VendorProfile })
  async save(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SaveVendorProfileDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VendorProfile> {
    const { created } = await this.profiles.save(principal.userId, {
      slug: body.slug,
      displayName: body.displayName,
      bio: body.bio,
      website: body.website,
    });
    await this.waiter.catchUpWithThisRequest();
    void reply.status(created ? 201 : 200);
    return publicProfile(await this.directory.require(principal.userId));
  }

  @Get()
  @ApiOkResponse({ type: VendorProfile })
  async get(@CurrentPrincipal() principal: Principal): Promise<VendorProfile> {
    return publicProfile(await this.directory.require(principal.userId));
  }
}

function publicProfile({ id: _id, ...profile }: VendorProfileView): VendorProfile {
  return profile;
}
