import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../platform/errors/domain-error';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';
import { isUuid } from '../../../platform/ids';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { AcceptInvitationCommand } from '../commands/accept-invitation/accept-invitation.command';
import { AcceptInvitationDto } from '../commands/accept-invitation/accept-invitation.dto';
import { ChangeMemberRoleCommand } from '../commands/change-member-role/change-member-role.command';
import { ChangeMemberRoleDto } from '../commands/change-member-role/change-member-role.dto';
import { ChangeOrgProfileCommand } from '../commands/change-org-profile/change-org-profile.command';
import { ChangeOrgProfileDto } from '../commands/change-org-profile/change-org-profile.dto';
import { CreateOrgCommand } from '../commands/create-org/create-org.command';
import { CreateOrgDto } from '../commands/create-org/create-org.dto';
import { DeleteOrgCommand } from '../commands/delete-org/delete-org.command';
import { InviteMemberCommand } from '../commands/invite-member/invite-member.command';
import { InviteMemberDto } from '../commands/invite-member/invite-member.dto';
import { RemoveMemberCommand } from '../commands/remove-member/remove-member.command';
import { OrgsReader } from '../read-models/orgs.reader';
import {
  Accepted,
  CreatedOrgAnswer,
  Deleted,
  InvitationAnswer,
  MemberAnswer,
  OrgList,
  OrgWithMembers,
  Removed,
} from './orgs.responses';

/**
 * Organizations. Every route under `/v1/orgs/:slug` answers 404 to a
 * non-member, whatever it asks: the org's existence is not revealed.
 */
@ApiTags('orgs')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/orgs')
export class OrgsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly reader: OrgsReader,
    private readonly waiter: ProjectionWaiter,
  ) {}

  /** The creator becomes the owner. */
  @Post()
  @ApiCreatedResponse({ type: CreatedOrgAnswer })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOrgDto): Promise<CreatedOrgAnswer> {
    const org = await this.commands.execute(new CreateOrgCommand(principal.userId, body.slug, body.name));
    return { org: { id: org.orgId, slug: org.slug, name: org.name } };
  }

  /** The caller's organizations, with its role in each. */
  @Get()
  @ApiOkResponse({ type: OrgList })
  async list(@CurrentPrincipal() principal: Principal): Promise<OrgList> {
    return { orgs: await this.reader.orgsOf(principal.userId) };
  }

  /** The token from an invitation link; the caller's e-mail must be the invited one. */
  @Post('accept-invite')
  @HttpCode(200)
  @ApiOkResponse({ type: Accepted })
  async accept(@CurrentPrincipal() principal: Principal, @Body() body: AcceptInvitationDto): Promise<Accepted> {
    await this.commands.execute(new AcceptInvitationCommand(principal.userId, body.token));
    return { accepted: true };
  }

  @Get(':slug')
  @ApiOkResponse({ type: OrgWithMembers })
  detail(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<OrgWithMembers> {
    return this.withMembers(slug, principal.userId);
  }

  /** Admins and owners: `name`, `avatarUrl`. Answers the org as GET does. */
  @Patch(':slug')
  @ApiOkResponse({ type: OrgWithMembers })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() body: ChangeOrgProfileDto,
  ): Promise<OrgWithMembers> {
    const { org } = await this.reader.membership(slug, principal.userId);
    await this.commands.execute(
      new ChangeOrgProfileCommand(org.id, principal.userId, { name: body?.name, avatarUrl: body?.avatarUrl }),
    );
    await this.waiter.catchUpWithThisRequest();
    return this.withMembers(slug, principal.userId);
  }

  /** Owners only; refused (409) while the org wallet holds money. */
  @Delete(':slug')
  @ApiOkResponse({ type: Deleted })
  async remove(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<Deleted> {
    const { org } = await this.reader.membership(slug, principal.userId);
    await this.commands.execute(new DeleteOrgCommand(org.id, principal.userId));
    return { deleted: true };
  }

  /**
   * Admins and owners invite an address as `admin` or `member`: the invitation link
   * `{web_url}/invitations/<token>` is e-mailed, valid 7 days, single use. Inviting an
   * address again replaces its earlier invitation.
   */
  @Post(':slug/members')
  @ApiCreatedResponse({ type: InvitationAnswer })
  async invite(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() body: InviteMemberDto,
  ): Promise<InvitationAnswer> {
    const { org } = await this.reader.membership(slug, principal.userId);
    return { invitation: await this.commands.execute(new InviteMemberCommand(org.id, principal.userId, body.email, body.role)) };
  }

  /**
   * Admins and owners. An admin cannot make anyone owner, change an owner's role or
   * its own; the last owner is never demoted.
   */
  @Patch(':slug/members/:userId')
  @ApiOkResponse({ type: MemberAnswer })
  async changeRole(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Param('userId') userId: string,
    @Body() body: ChangeMemberRoleDto,
  ): Promise<MemberAnswer> {
    const { org } = await this.reader.membership(slug, principal.userId);
    if (!isUuid(userId)) throw new DomainError('not_found', 'Member not found');
    await this.commands.execute(new ChangeMemberRoleCommand(org.id, principal.userId, userId, body.role));
    await this.waiter.catchUpWithThisRequest();
    const member = (await this.reader.members(org.id)).find((m) => m.userId === userId);
    if (!member) throw new DomainError('not_found', 'Member not found');
    return { member };
  }

  /** Admins and owners remove members (an admin never an owner); any member may remove itself (leave). */
  @Delete(':slug/members/:userId')
  @ApiOkResponse({ type: Removed })
  async removeMember(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Param('userId') userId: string,
  ): Promise<Removed> {
    const { org } = await this.reader.membership(slug, principal.userId);
    if (!isUuid(userId)) throw new DomainError('not_found', 'Member not found');
    await this.commands.execute(new RemoveMemberCommand(org.id, principal.userId, userId));
    return { removed: true };
  }

  private async withMembers(slug: string, userId: string): Promise<OrgWithMembers> {
    const { org, role } = await this.reader.membership(slug, userId);
    return {
      org: { id: org.id, slug: org.slug, name: org.name, myRole: role, createdAt: org.createdAt, avatarUrl: org.avatarUrl },
      members: await this.reader.members(org.id),
    };
  }
}
