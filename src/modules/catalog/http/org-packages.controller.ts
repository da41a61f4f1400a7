import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { OrgsReader } from '../../orgs/read-models/orgs.reader';
import { ChangeVisibilityCommand } from '../commands/change-visibility/change-visibility.command';
import { ChangeVisibilityDto } from '../commands/change-visibility/change-visibility.dto';
import { LISTING_STATUSES } from '../domain/listing-fields';
import { OrgPackage, OrgPackageAnswer, OrgPackageList } from './org-packages.responses';

/** The packages of the vendor profile(s) linked to an org; non-members get 404 like every org route. */
@ApiTags('orgs')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/orgs/:slug/packages')
export class OrgPackagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly orgs: OrgsReader,
    private readonly dataSource: DataSource,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @ApiQuery({ name: 'type', required: false, type: String })
  @ApiQuery({ name: 'status', required: false, enum: LISTING_STATUSES })
  @ApiOkResponse({ type: OrgPackageList })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Query('type') type?: unknown,
    @Query('status') status?: unknown,
  ): Promise<OrgPackageList> {
    const { org } = await this.orgs.membership(slug, principal.userId);
    if (type !== undefined && typeof type !== 'string') throw new DomainError('invalid', 'type must be a string');
    if (status !== undefined && !(LISTING_STATUSES as readonly unknown[]).includes(status))
      throw new DomainError('invalid', `status must be one of ${LISTING_STATUSES.join(', ')}`);
    return { packages: await this.packages(org.id, { type: type ?? null, status: (status as string) ?? null }) };
  }

  /** Admins and owners: `public`, `private` (members only) or `org_only` (members only, as well). */
  @Patch(':listingId')
  @ApiOkResponse({ type: OrgPackageAnswer })
  async changeVisibility(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Param('listingId') listingId: string,
    @Body() body: ChangeVisibilityDto,
  ): Promise<OrgPackageAnswer> {
    const { org } = await this.orgs.membershipAtLeast(
      slug,
      principal.userId,
      'admin',
      "Only an org admin or owner can change a package's visibility",
    );
    await this.commands.execute(new ChangeVisibilityCommand(org.id, listingId, body.visibility));
    await this.waiter.catchUpWithThisRequest();
    const [changed] = await this.packages(org.id, { listingId });
    return { package: changed };
  }

  private async packages(
    orgId: string,
    filter: { type?: string | null; status?: string | null; listingId?: string },
  ): Promise<OrgPackage[]> {
    const rows = await this.dataSource.query(
      `SELECT l.id, v.slug AS vendor_slug, l.slug, l.type, l.title, l.status, l.visibility, l.latest_version, l.updated_at
         FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
        WHERE v.org_id = $1 AND ($2::text IS NULL OR l.type = $2) AND ($3::text IS NULL OR l.status = $3)
          AND ($4::uuid IS NULL OR l.id = $4)
        ORDER BY l.created_at DESC, l.id`,
      [orgId, filter.type ?? null, filter.status ?? null, filter.listingId ?? null],
    );
    return rows.map((row: Record<string, unknown>) => ({
      id: row.id as string,
      vendorSlug: row.vendor_slug as string,
      slug: row.slug as string,
      type: row.type as string,
      title: row.title as string,
      status: row.status as string,
      visibility: row.visibility as string,
      latestVersion: row.latest_version as string | null,
      updatedAt: new Date(row.updated_at as string).toISOString(),
    }));
  }
}
