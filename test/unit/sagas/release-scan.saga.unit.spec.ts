import { CatalogEvents } from '../../../src/modules/catalog/events';
import { RELEASE_SCAN_QUEUE } from '../../../src/modules/catalog/scanning/release-scan.jobs';
import { ReleaseScanSaga } from '../../../src/sagas/release-scan/release-scan.saga';
import { recorded, whenSaga } from '../../support/saga';

// `react` never touches the bus or the queues.
const saga = whenSaga(new ReleaseScanSaga(null as never, null as never));

const uploaded = (data: { signedWith: string | null }, metadata: { correlationId?: string } = {}) =>
  recorded(
    CatalogEvents.ReleaseUploaded,
    {
      listingId: 'listing-1',
      releaseId: 'release-1',
      vendorId: 'vendor-1',
      archiveSha256: 'a'.repeat(64),
      sizeBytes: 1234,
      priceCents: 0,
      uploadedAt: '2026-11-22T10:00:00.000Z',
      version: '1.0.0',
      type: 'skill',
      title: 'PDF tools',
      description: 'Extract text',
      tags: [],
      targets: ['claude-code'],
      tools: [],
      readmeMd: null,
      ...data,
    },
    { eventId: '6f1c2a4e-0000-4000-8000-000000000001', metadata },
  );

describe('release scan saga', () => {
  it('given an uploaded release, asks for exactly one scan job whose id is the event id', () => {
    const event = uploaded({ signedWith: 'SHA256:key' }, { correlationId: 'request-7' });

    const reaction = saga.receives(event);

    expect(reaction.commands).toEqual([]);
    expect(reaction.jobs).toEqual([
      {
        queue: RELEASE_SCAN_QUEUE,
        name: 'scan',
        jobId: event.eventId,
        data: {
          listingId: 'listing-1',
          releaseId: 'release-1',
          archiveSha256: 'a'.repeat(64),
          signed: true,
          causationId: event.eventId,
          correlationId: 'request-7',
        },
        options: expect.objectContaining({ attempts: 5 }),
      },
    ]);
  });

  it('given the same upload delivered again, asks for the same job id, which the queue deduplicates', () => {
    const event = uploaded({ signedWith: null });

    const [first, again] = [saga.receives(event), saga.receives(event)];

    expect(again.jobs.map((j) => j.jobId)).toEqual(first.jobs.map((j) => j.jobId));
  });

  it('given an upload with no correlation id, correlates the scan with the upload itself, unsigned', () => {
    const event = uploaded({ signedWith: null });

    const [job] = saga.receives(event).jobs;

    expect(job.data).toMatchObject({ signed: false, causationId: event.eventId, correlationId: event.eventId });
  });

  it('given any other event, does nothing', () => {
    expect(saga.receives(recorded(CatalogEvents.ReleaseScanned, { releaseId: 'release-1' }))).toEqual({
      commands: [],
      jobs: [],
    });
  });
});
