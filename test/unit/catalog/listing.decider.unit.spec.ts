import {
  listingDecider,
  ListingCommand,
  ListingEvent,
  ListingState,
  ReleaseContent,
  ScanOutcome,
} from '../../../src/modules/catalog/domain/listing.decider';
import { ListingChanges } from '../../../src/modules/catalog/domain/listing-fields';
import { at, errorOf, givenWhenThen, t0 } from '../../support/decider';

const listingId = 'listing-1';
const vendorId = 'vendor-1';
const otherVendor = 'vendor-2';

const { fold, when, then } = givenWhenThen(listingDecider);
const existing = (events: ListingEvent[]) => {
  const state = fold(events);
  if (!state.exists) throw new Error('expected a listing');
  return state;
};

const content = (version: string, type = 'skill'): ReleaseContent => ({
  version,
  type,
  title: 'Summarizer',
  description: 'Summarizes things',
  tags: ['text'],
  targets: ['claude-code'],
  tools: [],
  readmeMd: '# Summarizer',
});

/** Each release id stands for different archive bytes unless `sha256` says otherwise. */
const shaOf = (releaseId: string) => releaseId.padEnd(64, 'f');

const upload = (
  releaseId: string,
  version: string,
  opts: { vendor?: string; type?: string; sha256?: string; priceCents?: number } = {},
): ListingCommand => ({
  type: 'UploadRelease',
  listingId,
  vendorId: opts.vendor ?? vendorId,
  slug: 'summarizer',
  releaseId,
  content: content(version, opts.type),
  archiveSha256: opts.sha256 ?? shaOf(releaseId),
  sizeBytes: 1234,
  priceCents: opts.priceCents ?? 500,
  signedWith: null,
  now: t0,
});

const outcome = (status: ScanOutcome['status'], findings: ScanOutcome['findings'] = []): ScanOutcome => ({
  status,
  label: status,
  qualityScore: 80,
  findings,
  checks: [{ check: 'manifest', ok: true }],
  promptGuard: { ran: false, verified: false, perFile: [] },
});
const scan = (releaseId: string, status: ScanOutcome['status'], findings: ScanOutcome['findings'] = []): ListingCommand => ({
  type: 'RecordScan',
  releaseId,
  outcome: outcome(status, findings),
  now: at(10),
});
const publish = (releaseId: string, vendor = vendorId): ListingCommand => ({
  type: 'PublishRelease',
  vendorId: vendor,
  releaseId,
  now: at(20),
});
const update = (changes: ListingChanges, vendor = vendorId): ListingCommand => ({
  type: 'UpdateListing',
  vendorId: vendor,
  changes,
  now: at(30),
});

const uploaded = then([], upload('r1', '1.0.0'));
const passed = then(uploaded, scan('r1', 'passed'));
const publishedV1 = then(passed, publish('r1'));

const failureFindings: ScanOutcome['findings'] = [
  { check: 'secrets', severity: 'failure', message: 'AWS key found', file: 'src/config.ts' },
  { check: 'license', severity: 'warning', message: 'No license' },
  { check: 'prompt', severity: 'failure', message: 'Prompt injection' },
];

describe('listing decider', () => {
  describe('UploadRelease', () => {
    it('creates the listing and uploads the release on an empty stream', () => {
      const events = when([], upload('r1', '1.0.0'));
      expect(events.map((e) => e.type)).toEqual(['ListingCreated', 'ReleaseUploaded']);
      expect(events[0]).toEqual({
        type: 'ListingCreated',
        data: {
          listingId,
          vendorId,
          slug: 'summarizer',
          priceCents: 500,
          createdAt: t0.toISOString(),
          type: 'skill',
          title: 'Summarizer',
          description: 'Summarizes things',
          tags: ['text'],
          targets: ['claude-code'],
          tools: [],
          readmeMd: '# Summarizer',
        },
      });
      expect(events[1]).toEqual({
        type: 'ReleaseUploaded',
        data: {
          listingId,
          releaseId: 'r1',
          vendorId,
          archiveSha256: shaOf('r1'),
          sizeBytes: 1234,
          priceCents: 500,
          signedWith: null,
          uploadedAt: t0.toISOString(),
          ...content('1.0.0'),
        },
      });
      expect(fold(events)).toEqual({
        exists: true,
        listingId,
        vendorId,
        type: 'skill',
        status: 'draft',
        pricingModel: 'one_time',
        perCallCents: null,
        latestVersion: null,
        visibility: 'public',
        priceCents: 500,
        priceEdited: false,
        releases: {
          r1: {
            version: '1.0.0',
            archiveSha256: shaOf('r1'),
            uploadedAt: t0.toISOString(),
            scanStatus: 'pending',
            publishRequested: false,
            published: false,
            failures: [],
            priceCents: 500,
          },
        },
      });
    });

    it('only uploads the release on an existing listing', () => {
      const events = when(uploaded, upload('r2', '1.1.0'));
      expect(events.map((e) => e.type)).toEqual(['ReleaseUploaded']);
      expect(events[0]).toMatchObject({ data: { releaseId: 'r2', version: '1.1.0' } });
    });

    it('refuses a version already uploaded (409)', () => {
      const error = errorOf(() => when(uploaded, upload('r2', '1.0.0')));
      expect(error.code).toBe('conflict');
      expect(error.message).toMatch(/1\.0\.0/);
    });

    it.each(['1.0.0+build.7', 'v1.0.0'])('refuses %s, equal in semver to 1.0.0 (409)', (version) => {
      expect(errorOf(() => when(uploaded, upload('r2', version))).code).toBe('conflict');
    });

    it('answers a retried upload of the same archive with nothing new', () => {
      expect(when(uploaded, upload('r2', '1.0.0', { sha256: shaOf('r1') }))).toEqual([]);
    });

    it('accepts a version again when its only upload failed the scan', () => {
      const failed = then(uploaded, { type: 'RecordScan', releaseId: 'r1', outcome: outcome('failed'), now: t0 });
      expect(when(failed, upload('r2', '1.0.0')).map((e) => e.type)).toEqual(['ReleaseUploaded']);
    });

    it('accepts a version lower than the highest uploaded', () => {
      const v2 = then(uploaded, upload('r2', '2.0.0'));
      expect(when(v2, upload('r3', '1.5.0')).map((e) => e.type)).toEqual(['ReleaseUploaded']);
    });

    it('refuses a different package type (422)', () => {
      const error = errorOf(() => when(uploaded, upload('r2', '1.1.0', { type: 'agent' })));
      expect(error.code).toBe('unprocessable');
      expect(error.message).toMatch(/type/);
    });

    it("refuses another vendor's upload as not found", () => {
      expect(errorOf(() => when(uploaded, upload('r2', '1.1.0', { vendor: otherVendor }))).code).toBe('not_found');
    });
  });

  describe('RecordScan', () => {
    it('records the scan of a pending release', () => {
      expect(when(uploaded, scan('r1', 'passed'))).toEqual([
        { type: 'ReleaseScanned', data: { listingId, releaseId: 'r1', scannedAt: at(10).toISOString(), ...outcome('passed') } },
      ]);
      expect(existing(passed).releases.r1.scanStatus).toBe('passed');
    });

    it('ignores a redelivered scan', () => {
      expect(when(passed, scan('r1', 'failed'))).toEqual([]);
    });

    it('refuses an unknown release or listing', () => {
      expect(errorOf(() => when(uploaded, scan('nope', 'passed'))).code).toBe('not_found');
      expect(errorOf(() => when([], scan('r1', 'passed'))).code).toBe('not_found');
    });

    it.each(['passed', 'flagged'] as const)('publishes a release waiting for its scan when it %s', (status) => {
      const requested = then(uploaded, publish('r1'));
      const events = when(requested, scan('r1', status));
      expect(events.map((e) => e.type)).toEqual(['ReleaseScanned', 'ReleasePublished']);
      expect(events[1]).toEqual({
        type: 'ReleasePublished',
        data: { listingId, releaseId: 'r1', version: '1.0.0', becomesLatest: true, publishedAt: at(10).toISOString() },
      });
      expect(existing([...requested, ...events])).toMatchObject({ status: 'published', latestVersion: '1.0.0' });
    });

    it('does not publish a release waiting for its scan when it failed', () => {
      const requested = then(uploaded, publish('r1'));
      const events = when(requested, scan('r1', 'failed', failureFindings));
      expect(events.map((e) => e.type)).toEqual(['ReleaseScanned']);
      expect(existing([...requested, ...events])).toMatchObject({ status: 'draft', latestVersion: null });
    });
  });

  describe('PublishRelease', () => {
    it('requests publication of a release still being scanned, once', () => {
      expect(when(uploaded, publish('r1'))).toEqual([
        { type: 'ReleasePublishRequested', data: { listingId, releaseId: 'r1', requestedAt: at(20).toISOString() } },
      ]);
      const requested = then(uploaded, publish('r1'));
      expect(existing(requested).releases.r1.publishRequested).toBe(true);
      expect(when(requested, publish('r1'))).toEqual([]);
    });

    it('publishes a release that passed, as the latest', () => {
      expect(when(passed, publish('r1'))).toEqual([
        {
          type: 'ReleasePublished',
          data: { listingId, releaseId: 'r1', version: '1.0.0', becomesLatest: true, publishedAt: at(20).toISOString() },
        },
      ]);
      expect(existing(publishedV1)).toMatchObject({ status: 'published', latestVersion: '1.0.0' });
      expect(existing(publishedV1).releases.r1.published).toBe(true);
    });

    it('prices the listing by its latest release, until the vendor sets a price of its own', () => {
      expect(existing(publishedV1).priceCents).toBe(500);
      const v2 = then(then(then(publishedV1, upload('r2', '2.0.0', { priceCents: 900 })), scan('r2', 'passed')), publish('r2'));
      expect(existing(v2).priceCents).toBe(900);
      const edited = then(v2, update({ priceCents: 700 }));
      expect(existing(edited)).toMatchObject({ priceCents: 700, priceEdited: true });
      const v3 = then(then(then(edited, upload('r3', '3.0.0', { priceCents: 100 })), scan('r3', 'passed')), publish('r3'));
      expect(existing(v3).priceCents).toBe(700);
    });

    it('publishes a flagged release', () => {
      const flagged = then(uploaded, scan('r1', 'flagged'));
      expect(when(flagged, publish('r1')).map((e) => e.type)).toEqual(['ReleasePublished']);
    });

    it('refuses a release that failed its scan (422), listing the failures', () => {
      const failed = then(uploaded, scan('r1', 'failed', failureFindings));
      const error = errorOf(() => when(failed, publish('r1')));
      expect(error.code).toBe('unprocessable');
      expect(error.details).toEqual({ reasons: ['src/config.ts: AWS key found', 'Prompt injection'] });
      expect(error.message).toContain('src/config.ts: AWS key found; Prompt injection');
    });

    it("refuses another vendor's release, or an unknown release, as not found", () => {
      expect(errorOf(() => when(passed, publish('r1', otherVendor))).code).toBe('not_found');
      expect(errorOf(() => when(passed, publish('nope'))).code).toBe('not_found');
      expect(errorOf(() => when([], publish('r1'))).code).toBe('not_found');
    });

    it('does nothing for a release already published', () => {
      expect(when(publishedV1, publish('r1'))).toEqual([]);
    });

    it('publishes a higher version as the new latest', () => {
      const v2 = then(then(publishedV1, upload('r2', '2.0.0')), scan('r2', 'passed'));
      const events = when(v2, publish('r2'));
      expect(events).toEqual([expect.objectContaining({ data: expect.objectContaining({ becomesLatest: true }) })]);
      expect(existing([...v2, ...events]).latestVersion).toBe('2.0.0');
    });

    it('publishes a lower version after a higher one without making it the latest', () => {
      const v2 = then(then(then(uploaded, upload('r2', '2.0.0')), scan('r2', 'passed')), publish('r2'));
      const maintenance = then(v2, scan('r1', 'passed'));
      const events = when(maintenance, publish('r1'));
      expect(events).toEqual([
        {
          type: 'ReleasePublished',
          data: { listingId, releaseId: 'r1', version: '1.0.0', becomesLatest: false, publishedAt: at(20).toISOString() },
        },
      ]);
      const state = existing([...maintenance, ...events]);
      expect(state.latestVersion).toBe('2.0.0');
      expect(state.releases.r1.published).toBe(true);
    });
  });

  describe('ChangeVisibility', () => {
    const change = (visibility: string, vendor = vendorId): ListingCommand => ({
      type: 'ChangeVisibility',
      vendorId: vendor,
      visibility: visibility as 'public',
      now: at(40),
    });

    it('records the new visibility, and nothing when it is unchanged', () => {
      const events = when(uploaded, change('private'));
      expect(events).toEqual([
        { type: 'ListingVisibilityChanged', data: { listingId, visibility: 'private', changedAt: at(40).toISOString() } },
      ]);
      expect(existing([...uploaded, ...events]).visibility).toBe('private');
      expect(when([...uploaded, ...events], change('private'))).toEqual([]);
      expect(when(uploaded, change('public'))).toEqual([]);
    });

    it("refuses an unknown visibility (400) and another vendor's listing (404)", () => {
      expect(errorOf(() => when(uploaded, change('secret'))).code).toBe('invalid');
      expect(errorOf(() => when(uploaded, change('org_only', otherVendor))).code).toBe('not_found');
    });
  });

  describe('UpdateListing', () => {
    it('records the changes', () => {
      expect(when(uploaded, update({ title: 'New title' }))).toEqual([
        { type: 'ListingUpdated', data: { listingId, changes: { title: 'New title' }, updatedAt: at(30).toISOString() } },
      ]);
    });

    it('refuses empty changes (400)', () => {
      expect(errorOf(() => when(uploaded, update({}))).code).toBe('invalid');
    });

    it('refuses metered pricing without a per-call price (400)', () => {
      const error = errorOf(() => when(uploaded, update({ pricingModel: 'metered' })));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/perCallCents/);
    });

    it('accepts metered pricing with a per-call price', () => {
      const events = when(uploaded, update({ pricingModel: 'metered', perCallCents: 3 }));
      expect(events.map((e) => e.type)).toEqual(['ListingUpdated']);
      expect(existing([...uploaded, ...events])).toMatchObject({ pricingModel: 'metered', perCallCents: 3 });
    });

    it('refuses to clear the per-call price of a metered listing (400)', () => {
      const metered = then(uploaded, update({ pricingModel: 'metered', perCallCents: 3 }));
      expect(errorOf(() => when(metered, update({ perCallCents: null }))).code).toBe('invalid');
      expect(when(metered, update({ title: 'still metered' })).map((e) => e.type)).toEqual(['ListingUpdated']);
      expect(when(metered, update({ pricingModel: 'one_time', perCallCents: null })).map((e) => e.type)).toEqual([
        'ListingUpdated',
      ]);
    });

    it.each(['published', 'unlisted'] as const)('refuses status %s without a published release (422)', (status) => {
      expect(errorOf(() => when(uploaded, update({ status }))).code).toBe('unprocessable');
      expect(errorOf(() => when(passed, update({ status }))).code).toBe('unprocessable');
    });

    it.each(['published', 'unlisted', 'draft'] as const)('accepts status %s after a release was published', (status) => {
      const events = when(publishedV1, update({ status }));
      expect(events.map((e) => e.type)).toEqual(['ListingUpdated']);
      expect(existing([...publishedV1, ...events]).status).toBe(status);
    });

    it('accepts status draft at any time', () => {
      expect(when(uploaded, update({ status: 'draft' })).map((e) => e.type)).toEqual(['ListingUpdated']);
    });

    it('refuses terminal control characters in the README, keeping line breaks and tabs (400)', () => {
      for (const readmeMd of ['# Hi \u001b[31mred', 'bell\u0007', 'c1 \u009b2J', 'del\u007f']) {
        const error = errorOf(() => when(uploaded, update({ readmeMd })));
        expect([readmeMd, error.code, error.message]).toEqual([
          readmeMd,
          'invalid',
          'readmeMd must not contain control characters',
        ]);
      }
      expect(when(uploaded, update({ readmeMd: '# Hi\r\n\tthere' })).map((e) => e.type)).toEqual(['ListingUpdated']);
    });

    it("refuses another vendor's update as not found", () => {
      expect(errorOf(() => when(publishedV1, update({ title: 'x' }, otherVendor))).code).toBe('not_found');
      expect(errorOf(() => when([], update({ title: 'x' }))).code).toBe('not_found');
    });
  });
});
