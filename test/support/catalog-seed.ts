import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { EventStore } from '../../src/event-store/event-store';
import { decideOnStream } from '../../src/event-store/fold-stream';
import { trackWrites } from '../../src/event-store/write-tracker';
import { ListingChanges } from '../../src/modules/catalog/domain/listing-fields';
import { listingDecider, listingStreamId, ScanOutcome } from '../../src/modules/catalog/domain/listing.decider';
import { installsStreamId } from '../../src/modules/catalog/domain/installs';
import { vendorDecider, vendorStreamId } from '../../src/modules/vendors/domain/vendor.decider';
import { BlobStore } from '../../src/platform/blob-store/blob-store';
import { Queues } from '../../src/platform/queue/queues';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { RELEASE_SCAN_QUEUE } from '../../src/modules/catalog/scanning/release-scan.jobs';
import { TestApp } from './app';

export interface SeedVendor {
  id: string;
  slug: string;
}

export interface SeedListing {
  vendor: SeedVendor;
  slug: string;
  title?: string;
  description?: string;
  type?: string;
  tags?: string[];
  targets?: string[];
  tools?: string[];
  priceCents?: number;
  readmeMd?: string | null;
  version?: string;
  scan?: ScanOutcome['status'];
  /** Publish the release (default true); a failed scan is never published. */
  publish?: boolean;
  signedWith?: string | null;
  /** The base64 signature recorded with the release (with `signedWith`). */
  signature?: string | null;
  changes?: ListingChanges;
  at?: Date;
  /** Stores these bytes in the app's blob store as the release's archive (otherwise the release names no stored blob). */
  archive?: Buffer;
}

const outcome = (status: ScanOutcome['status']): ScanOutcome => ({
  status,
  label: status === 'passed' ? 'clean' : status === 'flagged' ? 'warnings' : 'unsafe',
  qualityScore: 70,
  findings: status === 'failed' ? [{ check: 'paths', severity: 'failure', message: 'unsafe path', file: '../x' }] : [],
  checks: [{ check: 'paths', ok: status !== 'failed' }],
  promptGuard: { ran: true, verified: status !== 'flagged', perFile: [{ file: 'README.md', label: 'benign', score: 0.02 }] },
});

/**
 * Writes catalog history straight to the log through the real deciders (what
 * uploads, scans and publishes would append) and waits for the projections.
 */
export class CatalogSeed {
  private readonly store: EventStore;
  private readonly waiter: ProjectionWaiter;
  private readonly blobs: BlobStore;

  private constructor(app: TestApp) {
    this.store = app.server.app.get(EventStore);
    this.waiter = app.server.app.get(ProjectionWaiter);
    this.blobs = app.server.app.get(BlobStore);
  }

  /**
   * Seeded releases have no archive, so the real scan worker would fail them;
   * the seed records scan results itself and pauses that worker's queue.
   */
  static async for(app: TestApp): Promise<CatalogSeed> {
    await app.server.app.get(Queues).queue(RELEASE_SCAN_QUEUE).pause();
    return new CatalogSeed(app);
  }

  /** `id` makes an existing user (e.g. a test caller) the vendor. */
  async vendor(slug: string, options: { displayName?: string; verified?: boolean; id?: string } = {}): Promise<SeedVendor> {
    const id = options.id ?? randomUUID();
    await this.settled(async () => {
      const now = new Date();
      const website = `https://${slug}.example.com`;
      await decideOnStream(this.store, vendorStreamId(id), vendorDecider, {
        type: 'SaveProfile',
        vendorId: id,
        slug,
        displayName: options.displayName ?? slug,
        bio: null,
        website,
        now,
      });
      if (options.verified) {
        await decideOnStream(this.store, vendorStreamId(id), vendorDecider, { type: 'IssueDomainChallenge', token: 't', now });
        await decideOnStream(this.store, vendorStreamId(id), vendorDecider, {
          type: 'ConfirmDomain',
          host: `${slug}.example.com`,
          now,
        });
      }
    });
    return { id, slug };
  }

  async listing(spec: SeedListing): Promise<{ listingId: string; releaseId: string }> {
    const listingId = randomUUID();
    const releaseId = randomUUID();
    let archive = { sha256: 'a'.repeat(64), sizeBytes: 1000 };
    if (spec.archive) {
      const staged = await this.blobs.stage(Readable.from([spec.archive]), spec.archive.length);
      await this.blobs.commit(staged);
      archive = staged;
    }
    await this.settled(async () => {
      const now = spec.at ?? new Date();
      const stream = listingStreamId(listingId);
      await decideOnStream(this.store, stream, listingDecider, {
        type: 'UploadRelease',
        listingId,
        vendorId: spec.vendor.id,
        slug: spec.slug,
        releaseId,
        content: {
          version: spec.version ?? '1.0.0',
          type: spec.type ?? 'skill',
          title: spec.title ?? spec.slug,
          description: spec.description ?? `The ${spec.slug} package.`,
          tags: spec.tags ?? [],
          targets: spec.targets ?? ['claude-code'],
          tools: spec.tools ?? [],
          readmeMd: spec.readmeMd ?? null,
        },
        archiveSha256: archive.sha256,
        sizeBytes: archive.sizeBytes,
        priceCents: spec.priceCents ?? 0,
        signedWith: spec.signedWith ?? null,
        signature: spec.signature ?? null,
        now,
      });
      await decideOnStream(this.store, stream, listingDecider, {
        type: 'RecordScan',
        releaseId,
        outcome: outcome(spec.scan ?? 'passed'),
        now,
      });
      if ((spec.publish ?? true) && spec.scan !== 'failed') {
        await decideOnStream(this.store, stream, listingDecider, {
          type: 'PublishRelease',
          vendorId: spec.vendor.id,
          releaseId,
          now,
        });
      }
      if (spec.changes) {
        await decideOnStream(this.store, stream, listingDecider, {
          type: 'UpdateListing',
          vendorId: spec.vendor.id,
          changes: spec.changes,
          now,
        });
      }
    });
    return { listingId, releaseId };
  }

  async update(listingId: string, vendor: SeedVendor, changes: ListingChanges): Promise<void> {
    await this.settled(async () => {
      await decideOnStream(this.store, listingStreamId(listingId), listingDecider, {
        type: 'UpdateListing',
        vendorId: vendor.id,
        changes,
        now: new Date(),
      });
    });
  }

  /**
   * A listing edit appended as history from before today's text rules (control characters and all), past the
   * decider that now refuses them: what read models and clients must still cope with.
   */
  async legacyEdit(listingId: string, changes: Record<string, unknown>): Promise<void> {
    await this.settled(async () => {
      await this.store.append(
        listingStreamId(listingId),
        [{ type: 'ListingUpdated', data: { listingId, changes, updatedAt: new Date().toISOString() } }],
        'any',
      );
    });
  }

  /** An install as a download would record it. */
  async installs(listingId: string, count: number, at = new Date()): Promise<void> {
    if (count === 0) return;
    await this.settled(async () => {
      await this.store.append(
        installsStreamId(listingId),
        Array.from({ length: count }, () => ({
          type: 'InstallRecorded',
          data: { listingId, userId: randomUUID(), recordedAt: at.toISOString() },
        })),
        'any',
      );
    });
  }

  async install(listingId: string, userId: string, at: Date): Promise<void> {
    await this.settled(() =>
      this.store
        .append(
          installsStreamId(listingId),
          [{ type: 'InstallRecorded', data: { listingId, userId, recordedAt: at.toISOString() } }],
          'any',
        )
        .then(() => undefined),
    );
  }

  private async settled(work: () => Promise<void>): Promise<void> {
    const { lastPosition, eventTypes } = await trackWrites(work);
    if (lastPosition && !(await this.waiter.waitFor(lastPosition, eventTypes, 20_000)))
      throw new Error('projections did not catch up');
  }
}
