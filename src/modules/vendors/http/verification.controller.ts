import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../platform/errors/domain-error';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, Public, RequireScope } from '../../../platform/http/access';
import { VerificationService } from '../commands/verification.service';
import { VendorDirectory } from '../queries/vendor-directory';
import { AuthorizationUrl, DomainCheck, DomainRecord, GithubVerified, VendorVerification } from './vendor-responses';

const GITHUB_ORG = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor')
export class VerificationController {
  constructor(
    private readonly verification: VerificationService,
    private readonly directory: VendorDirectory,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get('verification')
  @ApiOkResponse({ type: VendorVerification })
  async status(@CurrentPrincipal() principal: Principal): Promise<VendorVerification> {
    const { domainVerified, githubVerified, githubOrg, verified } = await this.directory.require(principal.userId);
    return { domainVerified, githubVerified, githubOrg, verified };
  }

  /** The TXT record to publish on the profile website's host. */
  @Post('verify/domain')
  @HttpCode(200)
  @ApiOkResponse({ type: DomainRecord })
  async domainRecord(@CurrentPrincipal() principal: Principal): Promise<DomainRecord> {
    await this.directory.require(principal.userId);
    const record = await this.verification.domainRecord(principal.userId);
    await this.waiter.catchUpWithThisRequest();
    return { record };
  }

  @Post('verify/domain/check')
  @HttpCode(200)
  @ApiOkResponse({ type: DomainCheck })
  async checkDomain(@CurrentPrincipal() principal: Principal): Promise<DomainCheck> {
    await this.directory.require(principal.userId);
    const verified = await this.verification.checkDomain(principal.userId);
    await this.waiter.catchUpWithThisRequest();
    return { verified };
  }

  /** The GitHub authorization page; approving it proves admin rights in `org`. */
  @Get('verify/github')
  @ApiQuery({ name: 'org', description: 'The GitHub organization to claim' })
  @ApiOkResponse({ type: AuthorizationUrl })
  async github(@CurrentPrincipal() principal: Principal, @Query('org') org: unknown): Promise<AuthorizationUrl> {
    if (typeof org !== 'string' || !GITHUB_ORG.test(org)) {
      throw new DomainError('invalid', 'org must name a GitHub organization (letters, digits and hyphens, at most 39)');
    }
    await this.directory.require(principal.userId);
    return { url: await this.verification.githubAuthorizationUrl(principal.userId, org) };
  }

  /** Where GitHub sends the browser back; the single-use `state` identifies the vendor. */
  @Public()
  @Get('verify/github/callback')
  @ApiOkResponse({ type: GithubVerified })
  async githubCallback(@Query('state') state: unknown, @Query('code') code: unknown): Promise<GithubVerified> {
    if (typeof state !== 'string' || state.length > 200 || typeof code !== 'string' || code.length < 1 || code.length > 200) {
      throw new DomainError('invalid', 'The callback needs the state and code GitHub sends');
    }
    const { org } = await this.verification.completeGithub(state, code);
    await this.waiter.catchUpWithThisRequest();
    return { verified: true, githubOrg: org };
  }
}
