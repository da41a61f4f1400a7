import { Controller, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { BlobStore, StagedBlob } from '../../../platform/blob-store/blob-store';
import { DomainError } from '../../../platform/errors/domain-error';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { PublishReleaseService } from '../commands/publish-release/publish-release.service';
import { MAX_PRICE_CENTS } from '../commands/update-listing/update-listing.dto';
import { UploadReleaseService } from '../commands/upload-release/upload-release.service';
import { CatalogVendors } from '../queries/catalog-vendors';
import { Published, UploadedRelease } from './catalog-responses';

const FIELDS = new Set(['priceCents', 'signature']);

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/releases')
export class VendorReleasesController {
  constructor(
    private readonly uploads: UploadReleaseService,
    private readonly publishing: PublishReleaseService,
    private readonly vendors: CatalogVendors,
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
  @ApiConsumes('multipart/form-data')
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
    await this.vendors.require(principal.userId);
    if (!request.isMultipart())
      throw new DomainError('invalid', 'Send the release as multipart/form-data with an "archive" file field');
    let staged: StagedBlob | undefined;
    const fields: Record<string, string> = {};
    try {
      for await (const part of multipartParts(request)) {
        if (part.type === 'file') {
          if (part.fieldname !== 'archive' || staged) {
            part.file.resume();
            throw new DomainError('invalid', `Unexpected file field "${part.fieldname}": send one file, as "archive"`);
          }
          staged = await this.blobs.stage(part.file, this.config.maxArchiveBytes).catch(unreadableUpload);
          if (part.file.truncated)
            throw new DomainError('payload_too_large', `The archive is larger than ${this.config.maxArchiveBytes} bytes`);
        } else {
          if (!FIELDS.has(part.fieldname)) throw new DomainError('invalid', `Unknown field "${part.fieldname}"`);
          if (part.fieldname in fields) throw new DomainError('invalid', `Field "${part.fieldname}" is sent more than once`);
          fields[part.fieldname] = String(part.value);
        }
      }
      if (!staged) throw new DomainError('invalid', 'archive is required: attach the .zip as the "archive" file field');
      const result = await this.uploads.upload(principal.userId, staged, {
        priceCents: parsePrice(fields.priceCents),
        signature: fields.signature?.trim() ? fields.signature.trim() : null,
      });
      await this.waiter.catchUpWithThisRequest();
      return result;
    } finally {
      if (staged) await this.blobs.discard(staged);
    }
  }

  @Patch(':id/publish')
  @ApiOkResponse({ type: Published })
  async publish(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Published> {
    await this.vendors.require(principal.userId);
    const { version } = await this.publishing.publish(principal.userId, id);
    await this.waiter.catchUpWithThisRequest();
    return { ok: true, version };
  }
}

function parsePrice(raw: string | undefined): number {
  if (raw === undefined) throw new DomainError('invalid', 'priceCents is required (0 for a free package)');
  if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) > MAX_PRICE_CENTS) {
    throw new DomainError('invalid', `priceCents must be an integer from 0 to ${MAX_PRICE_CENTS}`);
  }
  return Number(raw);
}

/** A file stream that broke off mid-body is the caller's 400; disk errors (ENOSPC ...) stay 500s. */
function unreadableUpload(error: unknown): never {
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  if (error instanceof DomainError || (statusCode !== undefined && statusCode < 500) || /^E[A-Z]+$/.test(code ?? '')) throw error;
  throw new DomainError('invalid', `The archive upload could not be read: ${(error as Error).message}`);
}

/** The request's parts; a body the multipart parser cannot read is the caller's 400, not our 500. */
async function* multipartParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = request.parts();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (error instanceof DomainError || (status !== undefined && status < 500)) throw error;
      throw new DomainError('invalid', `The multipart/form-data body could not be read: ${(error as Error).message}`);
    }
    if (next.done) return;
    yield next.value;
  }
}
