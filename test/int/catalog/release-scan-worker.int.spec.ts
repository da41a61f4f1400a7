import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { Pool } from 'pg';
import { AppConfig } from '../../../src/config/app-config';
import { withEventContext } from '../../../src/event-store/event-context';
import { EventStore } from '../../../src/event-store/event-store';
import { decideOnStream } from '../../../src/event-store/fold-stream';
import { PersonalDataVault } from '../../../src/event-store/personal-data/personal-data-vault';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { ReadingEventStore } from '../../../src/event-store/reading-event-store';
import { listingDecider, listingStreamId } from '../../../src/modules/catalog/domain/listing.decider';
import { CatalogEvents } from '../../../src/modules/catalog/events';
import { ReleaseScanJob } from '../../../src/modules/catalog/scanning/release-scan.jobs';
import { ReleaseScanWorker } from '../../../src/modules/catalog/scanning/release-scan.worker';
import { BlobStore } from '../../../src/platform/blob-store/blob-store';
import { SystemClock } from '../../../src/platform/clock/clock';
import { ReleaseScanSaga } from '../../../src/sagas/release-scan/release-scan.saga';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';
import { buildZip } from '../../support/zip-builder';

const manifest = {
  slug: 'pdf-tools',
  version: '1.0.0',
  type: 'skill',
  title: 'PDF tools',
  description: 'Extract text and tables from PDF documents.',
  targets: ['claude-code'],
  tags: ['pdf'],
};

describe('release scan worker', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  let blobDir: string;
  let blobs: BlobStore;
  let worker: ReleaseScanWorker;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 4);
    store = new ReadingEventStore(new PostgresEventStore(pool), new PersonalDataVault(pool));
    blobDir = await mkdtemp(path.join(tmpdir(), 'svc-blobs-'));
    blobs = new BlobStore({ blobDir } as AppConfig);
    // The worker's queue and configuration only matter when it starts consuming, which this test does itself.
    worker = new ReleaseScanWorker(null as never, blobs, store, new SystemClock(), null as never);
  });

  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await db?.drop();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  it('records the scan with the upload as its cause and the upload’s correlation id', async () => {
    const archive = buildZip([{ name: 'manifest.json', data: JSON.stringify(manifest) }]);
    const staged = await blobs.stage(Readable.from(archive), 1024 * 1024);
    await blobs.commit(staged);
    const listingId = randomUUID();
    await withEventContext({ correlationId: 'upload-request-1' }, () =>
      decideOnStream(store, listingStreamId(listingId), listingDecider, {
        type: 'UploadRelease',
        listingId,
        vendorId: randomUUID(),
        slug: manifest.slug,
        releaseId: randomUUID(),
        content: { ...manifest, tools: [], readmeMd: null },
        archiveSha256: staged.sha256,
        sizeBytes: staged.sizeBytes,
        priceCents: 0,
        signedWith: null,
        now: new Date(),
      }),
    );
    const upload = (await store.readStream(listingStreamId(listingId))).find((e) => e.type === CatalogEvents.ReleaseUploaded)!;
    // The job exactly as the saga asks for it.
    const [request] = new ReleaseScanSaga(null as never, null as never).react(upload).jobs;

    const outcome = await worker.run({ data: request.data as ReleaseScanJob, attemptsMade: 0, opts: { attempts: 5 } });

    expect(outcome.status).toBe('passed');
    const scanned = (await store.readStream(listingStreamId(listingId))).find((e) => e.type === CatalogEvents.ReleaseScanned)!;
    expect(scanned.metadata).toMatchObject({ causationId: upload.eventId, correlationId: 'upload-request-1' });
  });
});
