import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EventStore, NewEvent, WrongExpectedVersionError } from '../../../../event-store/event-store';
import { conflictBackoff, foldStream } from '../../../../event-store/fold-stream';
import { BlobStore, StagedBlob } from '../../../../platform/blob-store/blob-store';
import { Clock } from '../../../../platform/clock/clock';
import { VerifyArchiveSignatureQuery } from '../../../vendors/queries/verify-archive-signature.query';
import { readPackage } from '../../archive/read-package';
import {
  listingDecider,
  ListingEvent,
  ListingState,
  listingStreamId,
  ReleaseContent,
  ScanStatus,
} from '../../domain/listing.decider';
import { CatalogVendors } from '../../queries/catalog-vendors';

export interface UploadedRelease {
  release: { id: string; version: string; scanStatus: ScanStatus; createdAt: string };
  listing: { id: string; slug: string };
}

/** A vendor's listing slugs are unique: the reservation stream holds the listing's id. */
const listingSlugStreamId = (vendorId: string, slug: string) => `listing-slug-${vendorId}-${slug}`;

const CONFLICT_RETRIES = 6;

@Injectable()
export class UploadReleaseService {
  constructor(
    private readonly store: EventStore,
    private readonly blobs: BlobStore,
    private readonly queries: QueryBus,
    private readonly vendors: CatalogVendors,
    private readonly clock: Clock,
  ) {}

  /**
   * Records an uploaded archive as a pending release; the first upload of a
   * slug creates its listing as a draft. The scan starts from the event.
   */
  async upload(
    vendorId: string,
    staged: StagedBlob,
    options: { priceCents: number; signature: string | null },
  ): Promise<UploadedRelease> {
    await this.vendors.require(vendorId);
    const { manifest, readmeMd } = await readPackage(staged.path);
    const signedWith = options.signature === null ? null : await this.verifySignature(vendorId, staged, options.signature);
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
    for (let attempt = 1; ; attempt++) {
      const reservation = await this.store.readStream(reservationId);
      const listingId = (reservation[0]?.data.listingId as string | undefined) ?? randomUUID();
      const { state, revision } = await foldStream<ListingState, ListingEvent>(
        this.store,
        listingStreamId(listingId),
        listingDecider.evolve,
        listingDecider.initialState,
      );
      const events = listingDecider.decide(
        {
          type: 'UploadRelease',
          listingId,
          vendorId,
          slug: manifest.slug,
          releaseId,
          content,
          archiveSha256: staged.sha256,
          sizeBytes: staged.sizeBytes,
          priceCents: options.priceCents,
          signedWith,
          now: this.clock.now(),
        },
        state,
      ) as unknown as NewEvent[];
      if (events.length === 0) return this.sameUpload(state, listingId, manifest.slug, content.version, staged.sha256);
      // Stored before the events that point at it, so no release ever names a missing archive.
      if (attempt === 1) await this.blobs.commit(staged);
      try {
        if (reservation.length === 0) {
          await this.store.appendAtomically([
            { streamId: listingStreamId(listingId), events, expected: 'no_stream' },
            {
              streamId: reservationId,
              events: [{ type: 'ListingSlugReserved', data: { listingId, vendorId } }],
              expected: 'no_stream',
            },
          ]);
        } else {
          await this.store.append(listingStreamId(listingId), events, revision);
        }
        const uploaded = events[events.length - 1].data as { uploadedAt: string };
        return {
          release: { id: releaseId, version: content.version, scanStatus: 'pending', createdAt: uploaded.uploadedAt },
          listing: { id: listingId, slug: manifest.slug },
        };
      } catch (error) {
        // Another upload of this slug won the race; decide again on what it wrote.
        if (!(error instanceof WrongExpectedVersionError) || attempt >= CONFLICT_RETRIES) throw error;
        await conflictBackoff(attempt);
      }
    }
  }

  /** The answer to a retried upload: the release the first attempt made. */
  private sameUpload(state: ListingState, listingId: string, slug: string, version: string, sha256: string): UploadedRelease {
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

  private async verifySignature(vendorId: string, staged: StagedBlob, signature: string): Promise<string> {
    const archive = await readFile(staged.path);
    const { fingerprint } = await this.queries.execute(new VerifyArchiveSignatureQuery(vendorId, archive, signature));
    return fingerprint;
  }
}
