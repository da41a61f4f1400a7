import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../platform/errors/domain-error';
import { CurrentPrincipal, Principal, Public, RequireScope } from '../../../platform/http/access';
import { CheckDomainCommand } from '../commands/check-domain/check-domain.command';
import { CompleteGithubVerificationCommand } from '../commands/complete-github-verification/complete-github-verification.command';
import { RequestDomainRecordCommand } from '../commands/request-domain-record/request-domain-record.command';
import { StartGithubVerificationCommand } from '../commands/start-github-verification/start-github-verification.command';
import { GetVendorProfileQuery } from '../queries/get-vendor-profile/get-vendor-profile.query';
import { AuthorizationUrl, DomainCheck, DomainRecord, GithubVerified, VendorVerification } from './verification.responses';

const GITHUB_ORG = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor')
export class VerificationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('verification')
  @ApiOkResponse({ type: VendorVerification })
  async status(@CurrentPrincipal() principal: Principal): Promise<VendorVerification> {
    const profile = await this.queries.execute(new GetVendorProfileQuery(principal.userId));
    const { domainVerified, githubVerified, githubOrg, verified } = profile;
    return { domainVerified, githubVerified, githubOrg, verified };
  }

  /** The TXT record to publish on the profile website's host. */
  @Post('verify/domain')
  @HttpCode(200)
  @ApiOkResponse({ type: DomainRecord })
  async domainRecord(@CurrentPrincipal() principal: Principal): Promise<DomainRecord> {
    return { record: await this.commands.execute(new RequestDomainRecordCommand(principal.userId)) };
  }

  @Post('verify/domain/check')
  @HttpCode(200)
  @ApiOkResponse({ type: DomainCheck })
  async checkDomain(@CurrentPrincipal() principal: Principal): Promise<DomainCheck> {
    return { verified: await this.commands.execute(new CheckDomainCommand(principal.userId)) };
  }

  /** The GitHub authorization page; approving it proves admin rights in `org`. */
  @Get('verify/github')
  @ApiQuery({ name: 'org', type: String, description: 'The GitHub organization to claim' })
  @ApiOkResponse({ type: AuthorizationUrl })
  async github(@CurrentPrincipal() principal: Principal, @Query('org') org: unknown): Promise<AuthorizationUrl> {
    if (typeof org !== 'string' || !GITHUB_ORG.test(org)) {
      throw new DomainError('invalid', 'org must name a GitHub organization (letters, digits and hyphens, at most 39)');
    }
    return { url: await this.commands.execute(new StartGithubVerificationCommand(principal.userId, org)) };
  }

  /** Where GitHub sends the browser back (the OAuth app's redirect URI); the single-use `state` identifies the vendor. */
  @Public()
  @Get('verify/github/callback')
  @ApiQuery({ name: 'state', type: String, description: 'The single-use state from the authorization URL' })
  @ApiQuery({ name: 'code', type: String, description: 'The code GitHub redirects with' })
  @ApiOkResponse({ type: GithubVerified })
  async githubCallback(@Query('state') state: unknown, @Query('code') code: unknown): Promise<GithubVerified> {
    // Not a DTO: GitHub decides which other parameters the callback carries.
    if (typeof state !== 'string' || state.length > 200 || typeof code !== 'string' || code.length < 1 || code.length > 200) {
      throw new DomainError('invalid', 'The callback needs the state and code GitHub sends');
    }
    const { org } = await this.commands.execute(new CompleteGithubVerificationCommand(state, code));
    return { verified: true, githubOrg: org };
  }
}
