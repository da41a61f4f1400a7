import { Body, Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Public, RequireScope } from '../../../platform/http/access';
import { IssueDownloadCommand } from '../commands/issue-download/issue-download.command';
import { IssueDownloadDto } from '../commands/issue-download/issue-download.dto';
import { DownloadLinkQueryDto } from '../queries/open-download/open-download.dto';
import { OpenDownloadQuery } from '../queries/open-download/open-download.query';
import { DownloadTicket } from './purchasing.responses';

@ApiTags('downloads')
@Controller('v1/downloads')
export class DownloadsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * A signed URL for a release of a listing the caller owns, valid for a few minutes; a free listing is
   * granted on its first download. Each download records an install (once per user, listing and UTC day).
   */
  @Post()
  @HttpCode(200)
  @ApiBearerAuth()
  @RequireScope('download')
  @ApiOkResponse({ type: DownloadTicket })
  @ApiForbiddenResponse({ description: 'A paid listing the caller does not own (buy it first), or a token without `download`' })
  @ApiNotFoundResponse({ description: 'Unknown or unpublished release, or a draft listing' })
  issue(@CurrentPrincipal() principal: Principal, @Body() body: IssueDownloadDto): Promise<DownloadTicket> {
    return this.commands.execute(
      new IssueDownloadCommand(principal.userId, body.releaseId, {
        tokenId: principal.tokenId,
        policyId: principal.policyId,
        tokenName: principal.tokenName,
      }),
    );
  }

  /** The archive itself. No token: the URL's signature is the credential, bound to the release, the user and the expiry. */
  @Get(':releaseId')
  @Public()
  @ApiOkResponse({
    description: 'The release archive, as an attachment',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiForbiddenResponse({ description: 'A tampered, foreign or expired link' })
  @ApiNotFoundResponse({ description: 'The release is no longer published' })
  async download(@Param('releaseId') releaseId: string, @Query() query: DownloadLinkQueryDto): Promise<StreamableFile> {
    const file = await this.queries.execute(
      new OpenDownloadQuery(releaseId, { user: query.user, expires: query.expires, signature: query.signature }),
    );
    return new StreamableFile(file.stream, {
      type: 'application/zip',
      disposition: `attachment; filename="${file.fileName}"`,
      length: file.sizeBytes,
    });
  }
}
