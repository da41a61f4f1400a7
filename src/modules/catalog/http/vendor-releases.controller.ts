import { Controller, Param, Patch, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { BlobStore } from '../../../platform/blob-store/blob-store';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { AcceptsBody, MULTIPART_BODY } from '../../../platform/http/body-types';
import { PublishReleaseCommand } from '../commands/publish-release/publish-release.command';
import { UploadReleaseCommand } from '../commands/upload-release/upload-release.command';
import { GetCatalogVendorQuery } from '../queries/get-catalog-vendor/get-catalog-vendor.query';
import { readReleaseUploadForm } from './release-upload.form';
import { Published, UploadedRelease } from './vendor-releases.responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/releases')
export class VendorReleasesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly blobs: BlobStore,
    private readonly waiter: ProjectionWaiter,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * multipart/form-data: `archive` (the .zip), `priceCents` (integer >= 0), optional `signature`
   * (base64 detached signature of the archive by the active signing key). The archive streams to
   * disk and is refused with 413 past MAX_ARCHIVE_BYTES.
   */
  @Post()
  @AcceptsBody(MULTIPART_BODY)
  @ApiBody({
    schema: {
      type: 'object',
      required: ['archive', 'priceCents'],
      properties: {
        archive: { type: 'string', format: 'binary' },
        priceCents: { type: 'integer', minimum: 0 },
        signature: { type: 'string', description: 'base64 detached signature of the archive' },
      },
    },
  })
  @ApiCreatedResponse({ type: UploadedRelease })
  async upload(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<UploadedRelease> {
    // A caller without a vendor profile is refused before any byte of its archive is written.
    await this.queries.execute(new GetCatalogVendorQuery(principal.userId));
    const form = await readReleaseUploadForm(request, this.blobs, this.config.maxArchiveBytes);
    try {
      const result = await this.commands.execute(
        new UploadReleaseCommand(principal.userId, form.staged, form.priceCents, form.signature),
      );
      await this.waiter.catchUpWithThisRequest();
      return result;
    } finally {
      await this.blobs.discard(form.staged);
    }
  }

  @Patch(':id/publish')
  @ApiOkResponse({ type: Published })
  async publish(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Published> {
    const { version } = await this.commands.execute(new PublishReleaseCommand(principal.userId, id));
    await this.waiter.catchUpWithThisRequest();
    return { ok: true, version };
  }
}
