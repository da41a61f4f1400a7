import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { decideOnce, retryOnConflict } from '../../../../event-store/fold-stream';
import { BlobStore, StagedBlob } from '../../../../platform/blob-store/blob-store';
import { Clock } from '../../../../platform/clock/clock';
import { VerifyArchiveSignatureQuery } from '../../../vendors/queries/verify-archive-signature/verify-archive-signature.query';
import { readPackage } from '../../archive/read-package';
import { listingDecider, ListingState, listingStreamId, ReleaseContent } from '../../domain/listing.decider';
import { CatalogEvents } from '../../events';
import { CatalogVendorsReader } from '../../read-models/catalog-vendors.reader';
import { UploadReleaseCommand, UploadReleaseResult } from './upload-release.command';

/** A vendor's listing slugs are unique: the reservation stream holds the listing's id. */
const listingSlugStreamId = (vendorId: string, slug: string) => `listing-slug-${vendorId}-${slug}`;

@CommandHandler(UploadReleaseCommand)
export class UploadReleaseHandler implements ICommandHandler<UploadReleaseCommand, UploadReleaseResult> {
  constructor(
    private readonly store: EventStore,
    private readonly blobs: BlobStore,
    private readonly queries: QueryBus,
    private readonly vendors: CatalogVendorsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ vendorId, staged, priceCents, signature }: UploadReleaseCommand): Promise<UploadReleaseResult> {
    await this.vendors.require(vendorId);
    const { manifest, readmeMd } = await readPackage(staged.path);
    const signedWith = signature === null ? null : await this.verifySignature(vendorId, staged, signature);
    const content: ReleaseContent = {
      version: manifest.version,
      type: manifest.type,
      title: manifest.title,
      description: manifest.description,
      tags: manifest.tags,
      targets: manifest.targets,
      tools: manifest.tools,
      readmeMd,
    };
    const releaseId = randomUUID();
    const reservationId = listingSlugStreamId(vendorId, manifest.slug);
    // The listing is found through the slug's reservation, so a conflict means finding it again:
    // another first upload of this slug may have created it meanwhile.
    return retryOnConflict(async () => {
      const reservation = await this.store.readStream(reservationId);
      const listingId = (reservation[0]?.data.listingId as string | undefined) ?? randomUUID();
      const reserve: StreamAppend = {
        streamId: reservationId,
        events: [{ type: CatalogEvents.ListingSlugReserved, data: { listingId, vendorId } }],
        expected: 'no_stream',
      };
      const { state } = await decideOnce(
        this.store,
        listingStreamId(listingId),
        listingDecider,
        {
          type: 'UploadRelease',
          listingId,
          vendorId,
          slug: manifest.slug,
          releaseId,
          content,
          archiveSha256: staged.sha256,
          sizeBytes: staged.sizeBytes,
          priceCents,
          signedWith,
          signature,
          now: this.clock.now(),
        },
        {
          // Stored before the events that name it, so no release ever names a missing archive.
          beforeAppend: () => this.blobs.commit(staged),
          alongside: () => (reservation.length === 0 ? [reserve] : []),
        },
      );
      return uploadedRelease(state, listingId, manifest.slug, content.version, staged.sha256);
    });
  }

  private async verifySignature(vendorId: string, staged: StagedBlob, signature: string): Promise<string> {
    const archive = await readFile(staged.path);
    const { fingerprint } = await this.queries.execute(new VerifyArchiveSignatureQuery(vendorId, archive, signature));
    return fingerprint;
  }
}

/** The release of this version and archive: the one just made, or the one a retried upload made before. */
function uploadedRelease(
  state: ListingState,
  listingId: string,
  slug: string,
  version: string,
  sha256: string,
): UploadReleaseResult {
  const found = state.exists
    ? Object.entries(state.releases).find(([, r]) => r.version === version && r.archiveSha256 === sha256)
    : undefined;
  if (!found) throw new Error(`no release of ${slug} ${version} with archive ${sha256}`);
  const [id, release] = found;
  return {
    release: { id, version, scanStatus: release.scanStatus, createdAt: release.uploadedAt },
    listing: { id: listingId, slug },
  };
}
