import { Decider } from '../../../event-store/fold-stream';
import * as semver from 'semver';
import { DomainError } from '../../../platform/errors/domain-error';
import { CatalogEvents } from '../events';
import { codePointLength, isMultiLineText, isSingleLineText } from '../../../platform/text/text-rules';
import {
  LISTING_LIMITS,
  LISTING_STATUSES,
  ListingChanges,
  ListingStatus,
  MAX_PRICE_CENTS,
  PRICING_MODELS,
  PricingModel,
  REQUIRED_LISTING_FIELDS,
  SETTLEMENT_METHODS,
} from './listing-fields';

/**
 * A listing and its releases (stream `listing-<id>`). Releases live in their
 * listing's stream because their invariants are the listing's: one upload per
 * version, and which published version is the latest.
 *
 * Versions: uploading a version already uploaded is refused (409). A version
 * lower than the highest uploaded is accepted, as a maintenance release for an
 * older line; publishing it never lowers `latestVersion`, which is always the
 * highest published version (a stable version over any prerelease).
 */

/** A release's scan: `pending` until the scanner's verdict is recorded. The order is the audits filter's. */
export const SCAN_STATUSES = ['passed', 'flagged', 'failed', 'pending'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
/** What a finished scan concludes. */
export type ScanVerdict = Exclude<ScanStatus, 'pending'>;

/** What an archive's manifest and README say, as recorded on upload. */
export interface ReleaseContent {
  version: string;
  type: string;
  title: string;
  description: string;
  tags: string[];
  targets: string[];
  tools: string[];
  readmeMd: string | null;
}

export interface ScanOutcome {
  status: ScanVerdict;
  label: string;
  qualityScore: number;
  findings: { check: string; severity: string; message: string; file?: string }[];
  checks: { check: string; ok: boolean }[];
  promptGuard: { ran: boolean; verified: boolean; perFile: { file: string; label: string; score: number }[] };
}

export type ListingEvent =
  | {
      type: 'ListingCreated';
      data: { listingId: string; vendorId: string; slug: string; priceCents: number; createdAt: string } & Omit<
        ReleaseContent,
        'version'
      >;
    }
  | {
      type: 'ReleaseUploaded';
      data: {
        listingId: string;
        releaseId: string;
        vendorId: string;
        archiveSha256: string;
        sizeBytes: number;
        priceCents: number;
        signedWith: string | null;
        /** The base64 detached signature as uploaded (absent in events older than it), for clients to verify. */
        signature?: string | null;
        uploadedAt: string;
      } & ReleaseContent;
    }
  | { type: 'ReleaseScanned'; data: { listingId: string; releaseId: string; scannedAt: string } & ScanOutcome }
  | { type: 'ReleasePublishRequested'; data: { listingId: string; releaseId: string; requestedAt: string } }
  | {
      type: 'ReleasePublished';
      data: { listingId: string; releaseId: string; version: string; becomesLatest: boolean; publishedAt: string };
    }
  | { type: 'ListingUpdated'; data: { listingId: string; changes: ListingChanges; updatedAt: string } }
  | { type: 'ListingVisibilityChanged'; data: { listingId: string; visibility: ListingVisibility; changedAt: string } };

/** Org package visibility: `private` and `org_only` listings are seen by the owning org's members only. */
export const LISTING_VISIBILITIES = ['public', 'private', 'org_only'] as const;
export type ListingVisibility = (typeof LISTING_VISIBILITIES)[number];

export const LISTING_EVENT_TYPES: ListingEvent['type'][] = [
  CatalogEvents.ListingCreated,
  CatalogEvents.ReleaseUploaded,
  CatalogEvents.ReleaseScanned,
  CatalogEvents.ReleasePublishRequested,
  CatalogEvents.ReleasePublished,
  CatalogEvents.ListingUpdated,
  CatalogEvents.ListingVisibilityChanged,
];

export interface ReleaseState {
  version: string;
  archiveSha256: string;
  uploadedAt: string;
  scanStatus: ScanStatus;
  publishRequested: boolean;
  published: boolean;
  failures: string[];
  /** The manifest's price; the listing's follows its latest release until the vendor sets one. */
  priceCents: number;
}

export type ListingState =
  | { exists: false }
  | {
      exists: true;
      listingId: string;
      vendorId: string;
      type: string;
      status: ListingStatus;
      pricingModel: PricingModel;
      perCallCents: number | null;
      latestVersion: string | null;
      visibility: ListingVisibility;
      /** What a purchase costs now: the latest release's manifest price, or the vendor's own once edited. */
      priceCents: number;
      priceEdited: boolean;
      releases: Record<string, ReleaseState>;
    };

export type ListingCommand =
  | {
      type: 'UploadRelease';
      listingId: string;
      vendorId: string;
      slug: string;
      releaseId: string;
      content: ReleaseContent;
      archiveSha256: string;
      sizeBytes: number;
      priceCents: number;
      signedWith: string | null;
      signature?: string | null;
      now: Date;
    }
  | { type: 'RecordScan'; releaseId: string; outcome: ScanOutcome; now: Date }
  | { type: 'PublishRelease'; vendorId: string; releaseId: string; now: Date }
  | { type: 'UpdateListing'; vendorId: string; changes: ListingChanges; now: Date }
  | { type: 'ChangeVisibility'; vendorId: string; visibility: ListingVisibility; now: Date };

export const initialListingState: ListingState = { exists: false };

export function decideListing(command: ListingCommand, state: ListingState): ListingEvent[] {
  if (command.type === 'UploadRelease') return upload(command, state);
  if (!state.exists) throw new DomainError('not_found', 'Listing not found');
  const { listingId } = state;
  const at = command.now.toISOString();
  switch (command.type) {
    case 'RecordScan': {
      const release = state.releases[command.releaseId];
      if (!release) throw new DomainError('not_found', 'Release not found');
      if (release.scanStatus !== 'pending') return []; // a redelivered scan job changes nothing
      const scanned: ListingEvent = {
        type: CatalogEvents.ReleaseScanned,
        data: { listingId, releaseId: command.releaseId, scannedAt: at, ...command.outcome },
      };
      if (!release.publishRequested || command.outcome.status === 'failed') return [scanned];
      return [scanned, published(state, command.releaseId, at)];
    }
    case 'PublishRelease': {
      const release = state.releases[command.releaseId];
      if (!release || state.vendorId !== command.vendorId) throw new DomainError('not_found', 'Release not found');
      if (release.scanStatus === 'failed') {
        throw new DomainError('unprocessable', `This release failed its security scan: ${release.failures.join('; ')}`, {
          reasons: release.failures,
        });
      }
      if (release.published || release.publishRequested) return [];
      if (release.scanStatus === 'pending')
        return [
          { type: CatalogEvents.ReleasePublishRequested, data: { listingId, releaseId: command.releaseId, requestedAt: at } },
        ];
      return [published(state, command.releaseId, at)];
    }
    case 'UpdateListing': {
      if (state.vendorId !== command.vendorId) throw new DomainError('not_found', 'Listing not found');
      checkChanges(command.changes, state);
      // Titles are trimmed, as the manifest's are.
      const changes =
        command.changes.title === undefined ? command.changes : { ...command.changes, title: command.changes.title.trim() };
      return [{ type: CatalogEvents.ListingUpdated, data: { listingId, changes, updatedAt: at } }];
    }
    case 'ChangeVisibility': {
      if (state.vendorId !== command.vendorId) throw new DomainError('not_found', 'Listing not found');
      if (!LISTING_VISIBILITIES.includes(command.visibility))
        throw new DomainError('invalid', `visibility must be one of ${LISTING_VISIBILITIES.join(', ')}`);
      if (state.visibility === command.visibility) return [];
      return [
        { type: CatalogEvents.ListingVisibilityChanged, data: { listingId, visibility: command.visibility, changedAt: at } },
      ];
    }
  }
}

function upload(command: Extract<ListingCommand, { type: 'UploadRelease' }>, state: ListingState): ListingEvent[] {
  const { content } = command;
  const at = command.now.toISOString();
  const uploaded: ListingEvent = {
    type: CatalogEvents.ReleaseUploaded,
    data: {
      listingId: command.listingId,
      releaseId: command.releaseId,
      vendorId: command.vendorId,
      archiveSha256: command.archiveSha256,
      sizeBytes: command.sizeBytes,
      priceCents: command.priceCents,
      signedWith: command.signedWith,
      // Only signed uploads carry it, so unsigned releases' events keep their earlier shape.
      ...(command.signedWith !== null && command.signature ? { signature: command.signature } : {}),
      uploadedAt: at,
      ...content,
    },
  };
  if (!state.exists) {
    const { version: _version, ...listing } = content;
    return [
      {
        type: CatalogEvents.ListingCreated,
        data: {
          listingId: command.listingId,
          vendorId: command.vendorId,
          slug: command.slug,
          priceCents: command.priceCents,
          createdAt: at,
          ...listing,
        },
      },
      uploaded,
    ];
  }
  if (state.vendorId !== command.vendorId) throw new DomainError('not_found', 'Listing not found');
  if (content.type !== state.type) {
    throw new DomainError(
      'unprocessable',
      `manifest.json: "type" is "${content.type}" but this listing is a ${state.type}; a listing keeps its type`,
    );
  }
  for (const release of Object.values(state.releases)) {
    if (!semver.eq(release.version, content.version)) continue;
    // A retried upload of the same bytes changes nothing; the service answers with the release it made.
    if (release.archiveSha256 === command.archiveSha256) return [];
    // A version whose only upload failed its scan was never offered to anyone, so it may be uploaded again.
    if (release.scanStatus === 'failed') continue;
    throw new DomainError('conflict', `Version ${content.version} of ${command.slug} was already uploaded; bump the version`);
  }
  return [uploaded];
}

function published(state: Extract<ListingState, { exists: true }>, releaseId: string, at: string): ListingEvent {
  const { version } = state.releases[releaseId];
  const becomesLatest = supersedes(version, state.latestVersion);
  return {
    type: CatalogEvents.ReleasePublished,
    data: { listingId: state.listingId, releaseId, version, becomesLatest, publishedAt: at },
  };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** A stable version always wins over a prerelease; otherwise the higher version wins. */
function supersedes(version: string, latest: string | null): boolean {
  if (latest === null) return true;
  const isPrerelease = semver.prerelease(version) !== null;
  if (isPrerelease !== (semver.prerelease(latest) !== null)) return !isPrerelease;
  return semver.gt(version, latest);
}

/** Rules that span fields or depend on the listing's state; single fields are validated at the edge. */
function checkChanges(changes: ListingChanges, state: Extract<ListingState, { exists: true }>): void {
  if (Object.keys(changes).length === 0) throw new DomainError('invalid', 'Send at least one field to change');
  checkStorable(changes);
  const pricingModel = changes.pricingModel ?? state.pricingModel;
  const perCallCents = changes.perCallCents !== undefined ? changes.perCallCents : state.perCallCents;
  if (pricingModel === 'metered' && (perCallCents === null || perCallCents === undefined)) {
    throw new DomainError('invalid', 'perCallCents is required when pricingModel is metered');
  }
  if (changes.serviceEndpoint) {
    const endpoint = parseUrl(changes.serviceEndpoint);
    if (!endpoint || !['http:', 'https:'].includes(endpoint.protocol))
      throw new DomainError('invalid', 'serviceEndpoint must be an http(s) URL');
    if (endpoint.username || endpoint.password) {
      throw new DomainError('invalid', 'serviceEndpoint must not carry credentials: it is shown publicly');
    }
  }
  if ((changes.status === 'published' || changes.status === 'unlisted') && state.latestVersion === null) {
    throw new DomainError('unprocessable', `A listing needs a published release before it can be ${changes.status}`);
  }
}

/**
 * The same rules as the edge, again in the domain: an edit the read models
 * could not hold is refused here, before anything is appended, so it can
 * never be stored, dead-lettered, and lost on every rebuild.
 */
function checkStorable(changes: ListingChanges): void {
  const refuse = (field: string, rule: string) => {
    throw new DomainError('invalid', `${field} ${rule}`);
  };
  for (const field of REQUIRED_LISTING_FIELDS)
    if (changes[field] === null) refuse(field, 'cannot be null: it always holds a value');
  const { title, description, tags, priceCents, readmeMd, status, pricingModel, settlementMethods, perCallCents } = changes;
  if (title !== undefined) {
    if (typeof title !== 'string' || title.trim() === '' || codePointLength(title.trim()) > LISTING_LIMITS.title)
      refuse('title', `must be 1-${LISTING_LIMITS.title} characters, not only spaces`);
    if (!isSingleLineText(title)) refuse('title', 'must be one line without control characters');
  }
  if (description !== undefined) {
    if (typeof description !== 'string' || description.trim() === '' || codePointLength(description) > LISTING_LIMITS.description)
      refuse('description', `must be 1-${LISTING_LIMITS.description} characters, not only spaces`);
    if (!isMultiLineText(description)) refuse('description', 'must not contain control characters');
  }
  if (
    tags !== undefined &&
    (!Array.isArray(tags) ||
      tags.length > LISTING_LIMITS.tags ||
      tags.some((t) => typeof t !== 'string' || !/^[a-z0-9-]{1,32}$/.test(t)))
  )
    refuse('tags', `must be at most ${LISTING_LIMITS.tags} tags of 1-32 lowercase letters, digits or hyphens`);
  for (const [field, cents] of [
    ['priceCents', priceCents],
    ['perCallCents', perCallCents],
  ] as const)
    if (cents !== undefined && cents !== null && (!Number.isSafeInteger(cents) || cents < 0 || cents > MAX_PRICE_CENTS))
      refuse(field, `must be a whole number of cents from 0 to ${MAX_PRICE_CENTS}`);
  if (readmeMd !== undefined) {
    if (typeof readmeMd !== 'string') refuse('readmeMd', 'must be a string');
    else if (!isMultiLineText(readmeMd)) refuse('readmeMd', 'must not contain control characters');
  }
  if (status !== undefined && !LISTING_STATUSES.includes(status))
    refuse('status', `must be one of ${LISTING_STATUSES.join(', ')}`);
  if (pricingModel !== undefined && !PRICING_MODELS.includes(pricingModel))
    refuse('pricingModel', `must be one of ${PRICING_MODELS.join(', ')}`);
  if (
    settlementMethods !== undefined &&
    (!Array.isArray(settlementMethods) || settlementMethods.some((m) => !SETTLEMENT_METHODS.includes(m)))
  )
    refuse('settlementMethods', `must list some of ${SETTLEMENT_METHODS.join(', ')}`);
}

export function evolveListing(state: ListingState, event: ListingEvent): ListingState {
  switch (event.type) {
    case CatalogEvents.ListingCreated:
      return {
        exists: true,
        listingId: event.data.listingId,
        vendorId: event.data.vendorId,
        type: event.data.type,
        status: 'draft',
        pricingModel: 'one_time',
        perCallCents: null,
        latestVersion: null,
        visibility: 'public',
        priceCents: event.data.priceCents,
        priceEdited: false,
        releases: {},
      };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case CatalogEvents.ListingVisibilityChanged:
      return { ...state, visibility: event.data.visibility };
    case CatalogEvents.ReleaseUploaded:
      return {
        ...state,
        releases: {
          ...state.releases,
          [event.data.releaseId]: {
            version: event.data.version,
            archiveSha256: event.data.archiveSha256,
            uploadedAt: event.data.uploadedAt,
            scanStatus: 'pending',
            publishRequested: false,
            published: false,
            failures: [],
            priceCents: event.data.priceCents,
          },
        },
      };
    case CatalogEvents.ReleaseScanned:
      return withRelease(state, event.data.releaseId, {
        scanStatus: event.data.status,
        failures: event.data.findings
          .filter((f) => f.severity === 'failure')
          .map((f) => (f.file ? `${f.file}: ${f.message}` : f.message)),
      });
    case CatalogEvents.ReleasePublishRequested:
      return withRelease(state, event.data.releaseId, { publishRequested: true });
    case CatalogEvents.ReleasePublished: {
      // A draft goes live; a listing its vendor unlisted stays unlisted.
      const next = { ...withRelease(state, event.data.releaseId, { published: true }), status: publishedStatus(state.status) };
      if (!event.data.becomesLatest) return next;
      const released = state.releases[event.data.releaseId];
      const priceCents = state.priceEdited || !released ? state.priceCents : released.priceCents;
      return { ...next, latestVersion: event.data.version, priceCents };
    }
    case CatalogEvents.ListingUpdated: {
      const { status, pricingModel, perCallCents, priceCents } = event.data.changes;
      return {
        ...state,
        priceCents: priceCents ?? state.priceCents,
        priceEdited: state.priceEdited || priceCents !== undefined,
        status: status ?? state.status,
        pricingModel: pricingModel ?? state.pricingModel,
        perCallCents: perCallCents !== undefined ? perCallCents : state.perCallCents,
      };
    }
  }
  return state;
}

function publishedStatus(current: ListingStatus): ListingStatus {
  return current === 'unlisted' ? 'unlisted' : 'published';
}

type ExistingListing = Extract<ListingState, { exists: true }>;

function withRelease(state: ExistingListing, releaseId: string, change: Partial<ReleaseState>): ExistingListing {
  const release = state.releases[releaseId];
  return release ? { ...state, releases: { ...state.releases, [releaseId]: { ...release, ...change } } } : state;
}

export const listingDecider: Decider<ListingCommand, ListingState, ListingEvent> = {
  decide: decideListing,
  evolve: evolveListing,
  initialState: initialListingState,
};

export const listingStreamId = (listingId: string) => `listing-${listingId}`;
