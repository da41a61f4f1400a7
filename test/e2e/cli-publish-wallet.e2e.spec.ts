import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CliUser, finished } from '../support/cli';
import { json } from '../support/http';
import { Relay } from '../support/relay';
import { fundWallet, settleSandboxIntent } from '../support/wallet';

describe('svc publish, keys and wallet', () => {
  let relay: Relay;
  let app: TestApp;
  let vendor: Caller;
  let buyer: Caller;
  let seller: CliUser;
  let shopper: CliUser;

  beforeAll(async () => {
    relay = await Relay.start();
    app = await startTestApp({ env: { BASE_URL: relay.url } });
    relay.target = app.url;
    vendor = await newCaller(app);
    expect((await vendor.call('POST', '/v1/vendor/profile', { slug: 'publisher', displayName: 'Publisher' })).status).toBe(201);
    buyer = await newCaller(app);
    seller = await CliUser.create(relay.url, { SVC_TOKEN: vendor.token });
    shopper = await CliUser.create(relay.url, { SVC_TOKEN: buyer.token });
  });
  afterAll(async () => {
    await seller?.remove();
    await shopper?.remove();
    await app?.close();
    await relay?.close();
  });

  const packageFolder = async (slug: string, version: string) => {
    const dir = path.join(seller.home, `${slug}-${version}`);
    await mkdir(path.join(dir, 'skills', slug), { recursive: true });
    await mkdir(path.join(dir, 'node_modules', 'junk'), { recursive: true });
    const manifest = {
      slug,
      version,
      type: 'skill',
      title: `The ${slug}`,
      description: 'Published by the CLI.',
      targets: ['claude-code'],
    };
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(path.join(dir, 'README.md'), `# ${slug}\n`);
    await writeFile(path.join(dir, 'skills', slug, 'SKILL.md'), `Use ${slug}.`);
    await writeFile(path.join(dir, 'notes.local.md'), 'private notes');
    await writeFile(path.join(dir, 'node_modules', 'junk', 'index.js'), 'module.exports = 1;');
    await writeFile(path.join(dir, '.svcignore'), '*.local.md\n');
    return dir;
  };

  it('registers a key, publishes a signed folder (honouring .svcignore) that a buyer installs verified', async () => {
    const pair = generateKeyPairSync('ed25519');
    const privatePem = path.join(seller.home, 'signing.pem');
    await writeFile(privatePem, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600 });
    const registered = await seller.run(['keys', 'register', privatePem, '--json']);
    expect(registered.code).toBe(0);
    expect(registered.json()).toEqual({ action: 'register', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const { fingerprint } = registered.json();

    const folder = await packageFolder('cli-published', '1.0.0');
    const published = await seller.run(['publish', folder, '--price', '300', '--sign-key', privatePem, '--json']);
    expect(published.code).toBe(0);
    const answer = published.json();
    expect(answer).toEqual(
      expect.objectContaining({
        version: '1.0.0',
        signed: true,
        release: expect.objectContaining({ version: '1.0.0', scanStatus: 'passed', publishedAt: expect.any(String) }),
        listing: expect.objectContaining({
          slug: 'cli-published',
          vendorSlug: 'publisher',
          url: `${relay.url}/v1/listings/publisher/cli-published`,
        }),
      }),
    );
    expect(answer.files.sort()).toEqual(['README.md', 'manifest.json', 'skills/cli-published/SKILL.md']);
    const listing = await json(await fetch(`${app.url}/v1/listings/publisher/cli-published`));
    expect(listing).toEqual(expect.objectContaining({ priceCents: 300, latestVersion: '1.0.0', status: 'published' }));

    await fundWallet(app, buyer, 500);
    const project = path.join(shopper.home, 'project');
    const installed = await shopper.run(['install', 'publisher/cli-published', '--wallet', '--dir', project, '--json']);
    expect(installed.code).toBe(0);
    expect(installed.json().installed).toEqual(
      expect.objectContaining({ signed: true, signingKeyFingerprint: fingerprint, sha256: answer.sha256 }),
    );
    expect(await readFile(path.join(project, '.claude/skills/cli-published/skills/cli-published/SKILL.md'), 'utf8')).toBe(
      'Use cli-published.',
    );

    // A new version, then `svc update` moves the project to it.
    const next = await seller.run([
      'publish',
      await packageFolder('cli-published', '1.1.0'),
      '--price',
      '300',
      '--sign-key',
      privatePem,
      '--json',
    ]);
    expect(next.code).toBe(0);
    const updated = await shopper.run(['update', '--dir', project, '--json']);
    expect(updated.code).toBe(0);
    expect(updated.json()).toEqual({
      updated: [expect.objectContaining({ installed: expect.objectContaining({ version: '1.1.0' }) })],
      upToDate: [],
    });
  });

  it('refuses a folder without manifest.json and a non-vendor, with the server message', async () => {
    const empty = path.join(seller.home, 'empty');
    await mkdir(empty);
    const missing = await seller.run(['publish', empty, '--json']);
    expect(missing.code).toBe(1);
    expect(missing.json().error).toMatch(/manifest.json/);

    const notVendor = await shopper.run(['publish', await packageFolder('not-mine', '1.0.0'), '--json']);
    expect(notVendor.code).toBe(1);
    expect(notVendor.json()).toEqual(expect.objectContaining({ status: 403, error: expect.stringMatching(/vendor/i) }));
  });

  it('shows the wallet, and a top-up that waits until the payment is credited', async () => {
    const before = await shopper.run(['wallet', '--json']);
    expect(before.code).toBe(0);
    const { wallet, transactions } = before.json();
    expect(wallet.balanceCents).toBe((await json(await buyer.call('GET', '/v1/wallet'))).balanceCents);
    expect(transactions.map((t: { type: string }) => t.type)).toEqual(expect.arrayContaining(['top_up', 'purchase']));
    expect((await shopper.run(['wallet'])).stdout).toMatch(/balance\s+\d+\.\d\d USD/);

    const waiting = shopper.spawn(['wallet', 'top-up', '700', '--wait', '--json']);
    const done = finished(waiting);
    const intentId = await new Promise<string>((resolve, reject) => {
      let seen = '';
      waiting.stderr!.on('data', (chunk) => {
        seen += chunk;
        const match = /payment intent (\S+) with/.exec(seen);
        if (match) resolve(match[1]);
      });
      waiting.on('close', () => reject(new Error(`top-up ended early:\n${seen}`)));
    });
    await settleSandboxIntent(app, intentId);
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.json()).toEqual(
      expect.objectContaining({
        amountCents: 700,
        paymentIntentId: intentId,
        credited: true,
        balanceCents: wallet.balanceCents + 700,
      }),
    );

    const tooSmall = await shopper.run(['wallet', 'top-up', '100', '--json']);
    expect(tooSmall.code).toBe(2);
  });
});
