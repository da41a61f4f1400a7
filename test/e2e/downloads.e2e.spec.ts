import { createHash, randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { installsStreamId } from '../../src/modules/catalog/domain/installs';
import { ManualClock } from '../../src/platform/clock/clock';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { fundWallet } from '../support/wallet';
import { buildZip } from '../support/zip-builder';

const NOW = '2026-03-02T10:00:00.000Z';
const TTL_MS = 300_000;
const DAY_MS = 24 * 60 * 60 * 1000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A small archive whose bytes differ per package, so a test can tell which one it got back. */
function packageZip(slug: string): Buffer {
  return buildZip([
    { name: 'manifest.json', data: JSON.stringify({ slug, version: '1.0.0', type: 'skill', title: slug, description: 'x' }) },
    { name: 'README.md', data: `# ${slug}\n\n${randomUUID()}\n` },
    { name: 'data.bin', data: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)), method: 'store' },
  ]);
}

describe('signed downloads', () => {
  const clock = new ManualClock(NOW);
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`dl-${randomUUID().slice(0, 8)}`, { displayName: 'Downloads Inc' });
  });
  afterAll(() => app?.close());
  afterEach(() => clock.set(NOW));

  const listing = async (priceCents: number, extra: { publish?: boolean } = {}) => {
    const slug = `pkg-${randomUUID().slice(0, 8)}`;
    const archive = packageZip(slug);
    const ids = await seed.listing({ vendor, slug, title: `Package ${slug}`, priceCents, archive, ...extra });
    return { ...ids, slug, archive };
  };
  const issue = (caller: Caller, body: unknown) => caller.call('POST', '/v1/downloads', body);
  /** The URL is under BASE_URL (the test app's configured address); the request goes to the app's real socket. */
  const get = (url: string) => {
    const { pathname, search } = new URL(url);
    return fetch(`${app.url}${pathname}${search}`);
  };
  const withParam = (url: string, name: string, value: string) => {
    const changed = new URL(url);
    changed.searchParams.set(name, value);
    return changed.toString();
  };
  const installCount = async (slug: string) =>
    (await json(await fetch(`${app.url}/v1/listings/${vendor.slug}/${slug}`))).installCount as number;

  it('serves a bought listing: the exact archive bytes, as an attachment, with its length and SHA-256', async () => {
    const buyer = await newCaller(app);
    const { listingId, releaseId, slug, archive } = await listing(400);
    await fundWallet(app, buyer, 1000);
    expect((await buyer.call('POST', '/v1/purchases', { listingId, useWallet: true })).status).toBe(200);

    const answer = await issue(buyer, { releaseId });
    expect(answer.status).toBe(200);
    const ticket = await json(answer);
    expect(ticket).toEqual({
      url: expect.any(String),
      sha256: sha256(archive),
      expiresAt: new Date(Date.parse(NOW) + TTL_MS).toISOString(),
    });
    expect(ticket.url.startsWith(`${app.server.config.baseUrl}/v1/downloads/${releaseId}?`)).toBe(true);

    // No token: the signature is the credential.
    const file = await get(ticket.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/zip');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${vendor.slug}-${slug}-1.0.0.zip"`);
    expect(file.headers.get('content-length')).toBe(String(archive.length));
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.equals(archive)).toBe(true);
    expect(sha256(bytes)).toBe(ticket.sha256);
    expect(await installCount(slug)).toBe(1);
  });

  it('grants a free listing on its first download, through the purchase path, and records an install', async () => {
    const user = await newCaller(app, ['download', 'read']);
    const { listingId, releaseId, slug, archive } = await listing(0);
    expect((await user.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(404);

    const answer = await issue(user, { releaseId });
    expect(answer.status).toBe(200);
    const ticket = await json(answer);
    expect(ticket.sha256).toBe(sha256(archive));

    // Read your writes: the entitlement, the free order and the install are visible at once.
    const { entitlements } = await json(await user.call('GET', '/v1/entitlements'));
    expect(entitlements).toEqual([expect.objectContaining({ listingId, releaseId, version: '1.0.0' })]);
    const { orders } = await json(await user.call('GET', '/v1/orders'));
    expect(orders).toEqual([expect.objectContaining({ listingId, amountCents: 0, fundingSource: 'free', status: 'paid' })]);
    expect(await installCount(slug)).toBe(1);

    // A second download finds it owned and buys nothing again.
    expect((await issue(user, { releaseId })).status).toBe(200);
    expect((await json(await user.call('GET', '/v1/orders'))).orders).toHaveLength(1);
    expect(Buffer.from(await (await get(ticket.url)).arrayBuffer()).equals(archive)).toBe(true);
  });

  it('refuses a paid listing the caller does not own with 403, recording nothing', async () => {
    const user = await newCaller(app);
    const { listingId, releaseId, slug } = await listing(900);
    const answer = await issue(user, { releaseId });
    expect(answer.status).toBe(403);
    expect((await json(answer)).message).toMatch(/buy it first/);
    expect(await installCount(slug)).toBe(0);
    expect((await user.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(404);
    expect(await app.server.app.get(EventStore).readStream(installsStreamId(listingId))).toEqual([]);
  });

  it('finds unknown and unpublished releases not found, and checks its input', async () => {
    const user = await newCaller(app);
    const unpublished = await listing(0, { publish: false });
    for (const releaseId of [randomUUID(), unpublished.releaseId]) {
      const answer = await issue(user, { releaseId });
      expect(answer.status).toBe(404);
      expect((await json(answer)).message).toEqual(expect.any(String));
    }
    for (const body of [{ releaseId: 'not-a-uuid' }, {}, { releaseId: 42 }, { releaseId: randomUUID(), extra: 1 }]) {
      const answer = await issue(user, body);
      expect(answer.status).toBe(400);
      expect((await json(answer)).message).toMatch(/releaseId|extra/);
    }
  });

  it('stops serving a link once its listing is taken back to draft', async () => {
    const user = await newCaller(app);
    const { listingId, releaseId } = await listing(0);
    const { url } = await json(await issue(user, { releaseId }));
    await seed.update(listingId, vendor, { status: 'draft' });
    expect((await get(url)).status).toBe(404);
    expect((await issue(user, { releaseId })).status).toBe(404);
  });

  it('needs the download scope', async () => {
    const { releaseId } = await listing(0);
    const noScope = await newCaller(app, ['read', 'purchase', 'sell']);
    expect((await issue(noScope, { releaseId })).status).toBe(403);
    const anonymous = await fetch(`${app.url}/v1/downloads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ releaseId }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a tampered, foreign or expired link with 403 and a message', async () => {
    const user = await newCaller(app);
    const other = await newCaller(app);
    const { releaseId } = await listing(0);
    const second = await listing(0);
    const { url } = await json(await issue(user, { releaseId }));
    const signature = new URL(url).searchParams.get('signature')!;
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    const refused = async (link: string, message: RegExp) => {
      const answer = await get(link);
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await json(answer)).message).toMatch(message);
    };

    await refused(withParam(url, 'signature', flipped), /not valid/);
    await refused(withParam(url, 'signature', 'zz'), /not valid/);
    // Another user's id, another release or a later expiry under the same signature.
    await refused(withParam(url, 'user', other.userId), /not valid/);
    await refused(url.replace(releaseId, second.releaseId), /not valid/);
    const expires = Number(new URL(url).searchParams.get('expires'));
    await refused(withParam(url, 'expires', String(expires + 3600)), /not valid/);

    // Valid to the last second, refused from the expiry on.
    clock.advance(TTL_MS - 1000);
    expect((await get(url)).status).toBe(200);
    clock.advance(1000);
    await refused(url, /expired/);

    // Missing parameters are a 400 naming them.
    const bare = await fetch(`${app.url}/v1/downloads/${releaseId}`);
    expect(bare.status).toBe(400);
    expect((await json(bare)).message).toMatch(/user|expires|signature/);
  });

  it('counts an install once per user, listing and UTC day, however often it is downloaded', async () => {
    const user = await newCaller(app);
    const { listingId, releaseId, slug } = await listing(0);
    for (let i = 0; i < 3; i++) expect((await issue(user, { releaseId })).status).toBe(200);
    expect(await installCount(slug)).toBe(1);
    expect(await app.server.app.get(EventStore).readStream(installsStreamId(listingId))).toHaveLength(1);

    // Another user counts, and so does the same user on the next UTC day.
    expect((await issue(await newCaller(app), { releaseId })).status).toBe(200);
    clock.advance(DAY_MS);
    expect((await issue(user, { releaseId })).status).toBe(200);
    expect(await installCount(slug)).toBe(3);
    expect(await app.server.app.get(EventStore).readStream(installsStreamId(listingId))).toHaveLength(3);
  });
});
