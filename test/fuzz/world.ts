import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '../../src/event-store/event-store';
import { decideOnStream } from '../../src/event-store/fold-stream';
import { trackWrites } from '../../src/event-store/write-tracker';
import { ListingChanges } from '../../src/modules/catalog/domain/listing-fields';
import { listingDecider, listingStreamId } from '../../src/modules/catalog/domain/listing.decider';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { connectedAccountStreamId } from '../../src/modules/billing/domain/connected-account.decider';
import { IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { Scope, SCOPES } from '../../src/modules/auth/domain/api-token';
import { Caller, callerFor, eventually, newCaller } from '../support/accounts';
import { TestApp } from '../support/app';
import { FakeDns } from '../support/fake-dns';
import { FakeGithub } from '../support/fake-github';
import { keyPair } from '../support/signing-keys';
import { addMember } from '../support/orgs';
import { settleSandboxIntent } from '../support/wallet';
import { buildZip } from '../support/zip-builder';
import { Seeds } from './arbitraries';
import { Operation } from './openapi-document';
import { CallerKey, FuzzRequest, Sent, Tokens } from './requests';

const SCOPED: Record<Exclude<CallerKey, 'anonymous' | 'garbage' | 'revoked'>, Scope[]> = {
  read: ['read'],
  purchase: ['purchase'],
  download: ['download'],
  sell: ['sell'],
  all: [...SCOPES],
};

const README = '# Fuzz package\n\nSeeded by the fuzz suite.\n';

export function packageArchive(slug: string, version: string, manifestPatch: Record<string, unknown> = {}): Buffer {
  const manifest = {
    slug,
    version,
    type: 'skill',
    title: `Fuzz ${slug}`,
    description: 'A package the fuzz suite uploads.',
    targets: ['claude-code'],
    tags: ['fuzz'],
    tools: ['fuzz_tool'],
    ...manifestPatch,
  };
  return buildZip([
    { name: 'manifest.json', data: JSON.stringify(manifest) },
    { name: 'README.md', data: README },
  ]);
}

/**
 * The accounts and resources the fuzz points at: a token of each scope, a revoked
 * one, a vendor (the `sell` caller) with a signing key and published listings, a
 * review, spare tokens, a pending device sign-in, and real search cursors.
 */
export class FuzzWorld implements Tokens {
  private readonly callers = new Map<CallerKey, Caller>();
  private vendorGeneration = 0;
  private deadLettersSeen = 0;
  private vendorSlug = 'fuzz-vendor';
  private readonly listingIds: string[] = [];
  readonly seeds: Seeds = { path: [], fields: {}, bodies: {}, cursors: [], archive: packageArchive };

  private constructor(
    private readonly app: TestApp,
    private readonly fakes: { dns: FakeDns; github: FakeGithub },
  ) {}

  static async create(app: TestApp, operations: Operation[], fakes: { dns: FakeDns; github: FakeGithub }): Promise<FuzzWorld> {
    const world = new FuzzWorld(app, fakes);
    await world.seed(operations);
    return world;
  }

  authorization(request: FuzzRequest): string | null {
    if (request.caller === 'anonymous') return null;
    if (request.caller === 'garbage') return request.garbageAuthorization ?? null;
    return `Bearer ${this.caller(request.caller).token}`;
  }

  caller(key: CallerKey): Caller {
    const caller = this.callers.get(key);
    if (!caller) throw new Error(`no caller ${key}`);
    return caller;
  }

  /**
   * Generated requests may revoke the token they were sent with or delete its
   * account; the next request of that caller must still carry a working token.
   */
  async afterResponse(request: FuzzRequest, sent: Sent): Promise<void> {
    if (!(request.caller in SCOPED) || request.method === 'GET' || sent.status >= 300) return;
    const key = request.caller as keyof typeof SCOPED;
    if ((await this.caller(key).call('GET', '/v1/auth/tokens')).status !== 401) return;
    await this.mint(key);
    if (key === 'sell' && (await this.caller('sell').call('GET', '/v1/vendor/profile')).status !== 200)
      this.vendorSlug = await this.vendorProfile();
  }

  /** A new token for the caller's account while it exists (its resources stay its own), else a new account. */
  private async mint(key: keyof typeof SCOPED): Promise<Caller> {
    const previous = this.callers.get(key);
    let caller: Caller | undefined;
    if (previous) {
      const issued = await this.app.server.app
        .get(CommandBus)
        .execute(new IssueTokenCommand(previous.userId, 'fuzz', SCOPED[key], 'admin'))
        .catch(() => undefined);
      if (issued) {
        caller = callerFor(this.app, previous.userId, issued.token);
        await eventually(async () => (await caller!.call('GET', '/v1/auth/tokens')).status !== 401, {
          timeoutMs: 10_000,
          description: 'the new token to authenticate',
        });
      }
    }
    caller ??= await newCaller(this.app, SCOPED[key]);
    this.callers.set(key, caller);
    return caller;
  }

  /** Dead letters parked since the last call, as `processor parked Type: error`. */
  async newDeadLetters(): Promise<string[]> {
    const rows: { processor: string; event_type: string; error: string }[] = await this.app.server.app
      .get(DataSource)
      .query('SELECT processor, event_type, error FROM processor_dead_letters ORDER BY failed_at, event_id OFFSET $1', [
        this.deadLettersSeen,
      ]);
    this.deadLettersSeen += rows.length;
    return rows.map((r) => `${r.processor} parked ${r.event_type}: ${r.error}`);
  }

  /** Puts back what the seeds promise: the vendor's profile and website, published listings, the domain record. */
  async restore(): Promise<void> {
    const sell = this.caller('sell');
    const profile = await sell.call('POST', '/v1/vendor/profile', {
      slug: this.vendorSlug,
      displayName: 'Fuzz Vendor',
      website: `https://${this.vendorSlug}.example.com`,
    });
    // An account deleted and replaced needs a profile and payouts of its own.
    if (profile.status >= 300) {
      this.vendorSlug = await this.vendorProfile();
      await this.onboardPayouts();
    }
    for (const id of this.listingIds) await sell.call('PATCH', `/v1/vendor/listings/${id}`, { status: 'published' });
    const domain = await sell.call('POST', '/v1/vendor/verify/domain');
    if (domain.status === 200)
      this.fakes.dns.setTxt(`${this.vendorSlug}.example.com`, [((await domain.json()) as { record: string }).record]);
    await this.freshCodes();
    // Whatever the restoring itself parked is not the next request's doing.
    await this.newDeadLetters();
  }

  /**
   * Single-use things (a device sign-in, a GitHub authorization, the active signing key) are used up or
   * replaced by earlier operations; each operation gets fresh ones. Arrays are refilled in place, as the
   * generators hold them.
   */
  private async freshCodes(): Promise<void> {
    const sell = this.caller('sell');
    const started = await this.expect(fetch(`${this.app.url}/v1/auth/device/start`, { method: 'POST' }), 200);
    refill(this.seeds.fields, 'deviceCode', [started.deviceCode]);
    refill(this.seeds.fields, 'userCode', [started.userCode]);
    const github = await sell.call('GET', '/v1/vendor/verify/github?org=fuzz-org');
    if (github.status === 200) {
      const { url } = (await github.json()) as { url: string };
      refill(this.seeds.fields, 'org', ['fuzz-org']);
      refill(this.seeds.fields, 'state', [new URL(url).searchParams.get('state')]);
      refill(this.seeds.fields, 'code', [this.fakes.github.authorize('fuzz-admin', { 'fuzz-org': 'admin' })]);
    }
    const key = keyPair();
    const registered = await sell.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: key.fingerprint });
    if (registered.status === 201) {
      const seed = this.seeds.path.find((p) => p.near === 'keys');
      if (seed) seed.values = { fingerprint: key.fingerprint };
    }
  }

  /** The vendor's payout account, onboarded (the sandbox, settled by hand), so the seller dashboard link answers 200. */
  private async onboardPayouts(): Promise<void> {
    const sell = this.caller('sell');
    await this.expect(sell.call('POST', '/v1/vendor/onboard'), 200);
    const [created] = await this.app.server.app.get(EventStore).readStream(connectedAccountStreamId(sell.userId));
    await settleSandboxIntent(this.app, created.data.accountId as string);
    await eventually(async () => (await sell.call('POST', '/v1/billing/seller-dashboard-link')).status === 200, {
      timeoutMs: 10_000,
      description: 'the seeded vendor to finish payout onboarding',
    });
  }

  private async vendorProfile(): Promise<string> {
    const slug = this.vendorGeneration++ === 0 ? 'fuzz-vendor' : `fuzz-vendor-${this.vendorGeneration}`;
    await this.expect(
      this.caller('sell').call('POST', '/v1/vendor/profile', {
        slug,
        displayName: 'Fuzz Vendor',
        website: `https://${slug}.example.com`,
      }),
      201,
    );
    return slug;
  }

  private async seed(operations: Operation[]): Promise<void> {
    for (const key of Object.keys(SCOPED) as (keyof typeof SCOPED)[]) await this.mint(key);
    const revoked = await newCaller(this.app, ['read']);
    await this.expect(revoked.call('POST', '/v1/auth/token/revoke'), 200);
    this.callers.set('revoked', revoked);

    const vendor = await this.vendorProfile();
    this.vendorSlug = vendor;
    const sell = this.caller('sell');

    // Signing keys: the active one can be revoked by fingerprint; a fresh pair makes a valid rotation body.
    const active = keyPair();
    await this.expect(
      sell.call('POST', '/v1/vendor/keys', { publicKey: active.publicKeyPem, fingerprint: active.fingerprint }),
      201,
    );
    this.seeds.path.push({ values: { fingerprint: active.fingerprint }, near: 'keys', owner: 'sell' });
    this.seeds.bodies.RegisterSigningKeyDto = [1, 2].map(() => {
      const next = keyPair();
      return { publicKey: next.publicKeyPem, fingerprint: next.fingerprint };
    });

    // Published listings (real uploads, scans and publishes), enough for search to hand out cursors.
    const listings: { id: string; slug: string; releaseId: string }[] = [];
    for (const [slug, priceCents] of [
      ['fuzz-alpha', '0'],
      ['fuzz-beta', '500'],
      ['fuzz-gamma', '1250'],
    ] as const) {
      const form = new FormData();
      form.append('priceCents', priceCents);
      form.append(
        'archive',
        new Blob([new Uint8Array(packageArchive(slug, '1.0.0'))], { type: 'application/zip' }),
        'package.zip',
      );
      const uploaded = await this.expect(sell.call('POST', '/v1/vendor/releases', form), 201);
      await this.expect(sell.call('PATCH', `/v1/vendor/releases/${uploaded.release.id}/publish`), 200);
      listings.push({ id: uploaded.listing.id, slug, releaseId: uploaded.release.id });
    }
    for (const listing of listings) {
      await eventually(
        async () => {
          const response = await fetch(`${this.app.url}/v1/listings/${vendor}/${listing.slug}`);
          return response.status === 200 && ((await response.json()) as { status?: string }).status === 'published';
        },
        { timeoutMs: 30_000, description: 'the seeded listing to be published' },
      );
      this.seeds.path.push({ values: { vendor, slug: listing.slug }, near: 'listings' });
      this.seeds.path.push({ values: { id: listing.id }, near: 'listings', owner: 'sell' });
      this.seeds.path.push({ values: { id: listing.releaseId }, near: 'releases', owner: 'sell' });
      this.listingIds.push(listing.id);
    }
    // Downloads: a free release (granted on first download) and a paid one nobody owns (403).
    this.seeds.bodies.IssueDownloadDto = [{ releaseId: listings[0].releaseId }, { releaseId: listings[1].releaseId }];
    // A newer release left unpublished, for publish to act on.
    const form = new FormData();
    form.append('priceCents', '0');
    form.append(
      'archive',
      new Blob([new Uint8Array(packageArchive('fuzz-alpha', '1.1.0'))], { type: 'application/zip' }),
      'package.zip',
    );
    const pending = await this.expect(sell.call('POST', '/v1/vendor/releases', form), 201);
    this.seeds.path.push({ values: { id: pending.release.id }, near: 'releases', owner: 'sell' });

    // A review by another user, voted on and answered.
    const reviewPath = `/v1/listings/${vendor}/${listings[0].slug}/reviews`;
    const review = await this.expect(this.caller('all').call('POST', reviewPath, { rating: 4, body: 'Solid.' }), 201);
    await this.expect(this.caller('read').call('POST', `${reviewPath}/${review.review.id}/vote`, { helpful: true }), 200);
    await this.expect(sell.call('POST', `/v1/vendor/reviews/${review.review.id}/reply`, { body: 'Thanks!' }), 200);
    this.seeds.path.push({ values: { vendor, slug: listings[0].slug, id: review.review.id }, near: 'reviews' });
    this.seeds.path.push({ values: { id: review.review.id }, near: 'reviews', owner: 'sell' });

    // A live service on the last listing (a public name that never answers: calls fail and are refunded),
    // and a session of the purchase caller with it. Written through the listing decider, as if the name had
    // resolved at registration: `.invalid` resolves nowhere, and registration refuses such a name (422).
    await this.registerService(listings[2].id, sell.userId, {
      serviceEndpoint: 'https://fuzz-service.invalid/mcp',
      serviceProtocol: 'https',
      pricingModel: 'metered',
      perCallCents: 5,
      settlementMethods: ['wallet'],
    });
    this.seeds.path.push({ values: { vendor, slug: listings[2].slug }, near: 'services' });
    const opened = await this.expect(
      this.caller('purchase').call('POST', '/v1/network/sessions', { vendor, slug: listings[2].slug }),
      201,
    );
    this.seeds.path.push({ values: { id: opened.session.id }, near: 'sessions', owner: 'purchase' });

    // Spare tokens (never the ones the callers send), so revoking a real token id is tried.
    for (const key of Object.keys(SCOPED) as (keyof typeof SCOPED)[]) {
      const caller = this.caller(key);
      const { tokenId } = await this.app.server.app
        .get(CommandBus)
        .execute(new IssueTokenCommand(caller.userId, 'spare', SCOPED[key], 'admin'));
      this.seeds.path.push({ values: { id: tokenId }, near: 'tokens', owner: key });
    }

    // A spend policy per caller, for PATCH and DELETE to find and new tokens to be bound to.
    for (const key of Object.keys(SCOPED) as (keyof typeof SCOPED)[]) {
      const policy = await this.expect(this.caller(key).call('POST', '/v1/policies', { name: `fuzz ${key}` }), 201);
      this.seeds.path.push({ values: { id: policy.id }, near: 'policies', owner: key });
      (this.seeds.fields.policyId ??= []).push(policy.id);
    }

    // An org owned by the `all` caller, with the `purchase` caller as a member, for the org routes to find.
    await this.expect(this.caller('all').call('POST', '/v1/orgs', { slug: 'fuzz-team', name: 'Fuzz team' }), 201);
    const member = this.caller('purchase');
    await addMember(this.app, this.caller('all'), 'fuzz-team', member, 'member');
    this.seeds.path.push({ values: { slug: 'fuzz-team', userId: member.userId }, near: 'orgs', owner: 'all' });
    this.seeds.path.push({ values: { slug: 'fuzz-team', userId: member.userId }, near: 'members', owner: 'all' });
    (this.seeds.fields.orgSlug ??= []).push('fuzz-team');

    // The vendor's domain record is published, so the check can pass; device and GitHub codes are pending.
    const { record } = await this.expect(sell.call('POST', '/v1/vendor/verify/domain'), 200);
    this.fakes.dns.setTxt(`${vendor}.example.com`, [record]);
    await this.freshCodes();
    await this.onboardPayouts();

    await this.harvestCursors(operations);
  }

  /** Real cursors from every listing operation that takes one, one page at a time, per sort order. */
  private async harvestCursors(operations: Operation[]): Promise<void> {
    for (const op of operations) {
      const cursor = op.parameters.find((p) => p.in === 'query' && p.name === 'cursor');
      if (op.method !== 'GET' || !cursor || op.parameters.some((p) => p.in === 'path')) continue;
      const sorts: (string | undefined)[] = [
        undefined,
        ...((op.parameters.find((p) => p.name === 'sort')?.schema?.enum as string[]) ?? []),
      ];
      for (const sort of sorts) {
        const query: [string, string][] = [['per_page', '1'], ...(sort ? ([['sort', sort]] as [string, string][]) : [])];
        const response = await fetch(`${this.app.url}${op.path}?${new URLSearchParams(query)}`);
        const body = response.status === 200 ? ((await response.json()) as { nextCursor?: unknown }) : undefined;
        if (typeof body?.nextCursor === 'string') this.seeds.cursors.push({ path: op.path, query, cursor: body.nextCursor });
      }
    }
  }

  /** A listing's service terms written through the decider, past the registration check; answers once projected. */
  private async registerService(listingId: string, vendorId: string, changes: ListingChanges): Promise<void> {
    const store = this.app.server.app.get(EventStore);
    const { lastPosition, eventTypes } = await trackWrites(() =>
      decideOnStream(store, listingStreamId(listingId), listingDecider, {
        type: 'UpdateListing',
        vendorId,
        changes,
        now: new Date(),
      }).then(() => undefined),
    );
    if (lastPosition && !(await this.app.server.app.get(ProjectionWaiter).waitFor(lastPosition, eventTypes, 20_000)))
      throw new Error('seeding: projections did not catch up with the service registration');
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async expect(response: Promise<Response>, status: number): Promise<any> {
    const answer = await response;
    const text = await answer.text();
    if (answer.status !== status) throw new Error(`seeding: expected ${status}, got ${answer.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  }
}

function refill(fields: Record<string, unknown[]>, name: string, values: unknown[]): void {
  const list = (fields[name] ??= []);
  list.splice(0, list.length, ...values);
}
