import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CliUser, finished } from '../support/cli';
import { json } from '../support/http';
import { Relay } from '../support/relay';
import { keyPair } from '../support/signing-keys';
import { addMember, createOrg, fundOrgWallet } from '../support/orgs';
import { fundWallet } from '../support/wallet';
import { buildZip } from '../support/zip-builder';

const packageZip = (slug: string, version = '1.0.0') =>
  buildZip([
    {
      name: 'manifest.json',
      data: JSON.stringify({
        slug,
        version,
        type: 'skill',
        title: slug,
        description: 'A skill.',
        targets: ['claude-code', 'cursor'],
      }),
    },
    { name: 'README.md', data: `# ${slug}\n` },
    { name: `skills/${slug}/SKILL.md`, data: `Use ${slug} ${version}.` },
  ]);

function uploadForm(archive: Buffer, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('archive', new Blob([new Uint8Array(archive)], { type: 'application/zip' }), 'package.zip');
  return form;
}

describe('svc install: buy, download, verify, unpack', () => {
  let relay: Relay;
  let app: TestApp;
  let vendor: Caller;
  let buyer: Caller;
  let user: CliUser;
  const key = keyPair('ed25519');

  /** A release still being scanned is published when its scan passes, so this waits for the listing to show it. */
  const publish = async (slug: string, archive: Buffer, fields: Record<string, string>) => {
    const uploaded = await vendor.call('POST', '/v1/vendor/releases', uploadForm(archive, fields));
    expect(uploaded.status).toBe(201);
    const { release } = await json(uploaded);
    expect((await vendor.call('PATCH', `/v1/vendor/releases/${release.id}/publish`)).status).toBe(200);
    await eventually(async () => (await fetch(`${app.url}/v1/listings/toolsmith/${slug}/releases`)).status === 200, {
      description: `release ${release.id} to be scanned and published`,
    });
  };

  beforeAll(async () => {
    // Signed download URLs are under BASE_URL: the relay, which the CLI talks to as well.
    relay = await Relay.start();
    app = await startTestApp({ env: { BASE_URL: relay.url, WEB_URL: 'https://web.example.com' } });
    relay.target = app.url;
    vendor = await newCaller(app);
    expect((await vendor.call('POST', '/v1/vendor/profile', { slug: 'toolsmith', displayName: 'Toolsmith' })).status).toBe(201);
    expect(
      (await vendor.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: key.fingerprint })).status,
    ).toBe(201);
    const signed = packageZip('signed-skill');
    await publish('signed-skill', signed, { priceCents: '700', signature: key.sign(signed) });
    await publish('plain-skill', packageZip('plain-skill'), { priceCents: '0' });
    buyer = await newCaller(app);
    await fundWallet(app, buyer, 1000);
  });
  beforeEach(async () => {
    user = await CliUser.create(relay.url, { SVC_TOKEN: buyer.token });
    relay.tamper = null;
  });
  afterEach(() => user?.remove());
  afterAll(async () => {
    await app?.close();
    await relay?.close();
  });

  const project = () => path.join(user.home, 'project');
  const lock = async () => JSON.parse(await readFile(path.join(project(), 'svc-lock.json'), 'utf8'));

  it('installs for an organization with --org: the org wallet pays, and `svc wallet --org` shows it', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    await fundOrgWallet(app, owner, org.slug, 1000);
    const member = await newCaller(app);
    await addMember(app, owner, org.slug, member, 'member');
    const cli = await CliUser.create(relay.url, { SVC_TOKEN: member.token });
    try {
      const run = await cli.run(['install', 'toolsmith/signed-skill', '--org', org.slug, '--dir', project(), '--json']);
      expect(run.code).toBe(0);
      expect(run.json().purchase).toEqual(expect.objectContaining({ status: 'purchased', amountCents: 700 }));
      const wallet = await cli.run(['wallet', '--org', org.slug, '--json']);
      expect(wallet.code).toBe(0);
      expect(wallet.json().wallet.balanceCents).toBe(300);
      expect(wallet.json().transactions[0]).toEqual(expect.objectContaining({ type: 'purchase', amountCents: -700 }));
      expect((await json(await member.call('GET', '/v1/wallet'))).balanceCents).toBe(0);
    } finally {
      await cli.remove();
    }
  });

  it('buys a signed paid package from the wallet, verifies it and unpacks it for the target; list and remove', async () => {
    const run = await user.run([
      'install',
      'toolsmith/signed-skill',
      '--wallet',
      '--max-price',
      '700',
      '--dir',
      project(),
      '--json',
    ]);
    expect(run.code).toBe(0);
    const answer = run.json();
    expect(answer).toEqual({
      installed: expect.objectContaining({
        vendor: 'toolsmith',
        slug: 'signed-skill',
        version: '1.0.0',
        target: 'claude-code',
        path: '.claude/skills/signed-skill',
        signed: true,
        signingKeyFingerprint: key.fingerprint,
      }),
      files: expect.arrayContaining(['manifest.json', 'README.md', 'skills/signed-skill/SKILL.md']),
      purchase: expect.objectContaining({ status: 'purchased', amountCents: 700, walletBalanceCents: 300 }),
    });
    const installed = path.join(project(), '.claude/skills/signed-skill');
    expect(await readFile(path.join(installed, 'skills/signed-skill/SKILL.md'), 'utf8')).toBe('Use signed-skill 1.0.0.');
    expect((await lock()).packages['toolsmith/signed-skill']).toEqual(
      expect.objectContaining({ version: '1.0.0', sha256: answer.installed.sha256, signed: true }),
    );
    expect((await json(await buyer.call('GET', '/v1/wallet'))).balanceCents).toBe(300);

    // Owned now: a reinstall for another target buys nothing again.
    const cursor = await user.run(['install', 'toolsmith/signed-skill', '--target', 'cursor', '--dir', project(), '--json']);
    expect(cursor.code).toBe(0);
    expect(cursor.json()).toEqual(
      expect.objectContaining({ purchase: null, installed: expect.objectContaining({ path: '.cursor/rules/signed-skill' }) }),
    );

    const list = await user.run(['list', '--dir', project(), '--json']);
    expect(list.json().packages).toEqual([
      expect.objectContaining({ vendor: 'toolsmith', slug: 'signed-skill', target: 'cursor' }),
    ]);
    const removed = await user.run(['remove', 'toolsmith/signed-skill', '--dir', project(), '--json']);
    expect(removed.code).toBe(0);
    await expect(stat(path.join(project(), '.cursor/rules/signed-skill'))).rejects.toThrow(/ENOENT/);
    expect((await lock()).packages).toEqual({});
  });

  it('refuses a tampered download: nothing installed, nothing locked', async () => {
    relay.tamper = (pathname, body) => {
      if (!pathname.startsWith('/v1/downloads/')) return body;
      const changed = Buffer.from(body);
      changed[changed.length - 30] ^= 0xff;
      return changed;
    };
    const run = await user.run(['install', 'toolsmith/signed-skill', '--dir', project(), '--json']);
    expect(run.code).toBe(1);
    expect(run.json().error).toMatch(/Refusing to install: the download's SHA-256 is [0-9a-f]{64}, the release record says/);
    await expect(stat(project())).rejects.toThrow(/ENOENT/);
  });

  it('refuses an unsigned release unless --allow-unsigned, which says so', async () => {
    const refused = await user.run(['install', 'toolsmith/plain-skill', '--dir', project(), '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json().error).toMatch(/not signed.*--allow-unsigned/);
    await expect(stat(project())).rejects.toThrow(/ENOENT/);

    const allowed = await user.run(['install', 'toolsmith/plain-skill', '--allow-unsigned', '--dir', project(), '--json']);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(/unsigned/);
    expect(allowed.json().installed).toEqual(expect.objectContaining({ signed: false, signingKeyFingerprint: null }));
    const human = await user.run(['install', 'toolsmith/plain-skill', '--allow-unsigned', '--dir', project()]);
    expect(human.stdout).toMatch(/Installed toolsmith\/plain-skill@1.0.0 .*UNSIGNED/);
  });

  it('exits 3 when payment is needed, 4 when not signed in, 1 for an unknown version', async () => {
    const poor = await newCaller(app);
    const broke = await user.run(['install', 'toolsmith/signed-skill', '--wallet', '--dir', project(), '--json'], {
      env: { SVC_TOKEN: poor.token },
    });
    expect(broke.code).toBe(3);
    expect(broke.json()).toEqual(
      expect.objectContaining({ status: 'insufficient_balance', balanceCents: 0, requiredCents: 700 }),
    );
    expect(broke.stderr).toMatch(/svc wallet top-up/);

    const tooDear = await user.run(['install', 'toolsmith/signed-skill', '--max-price', '100', '--json'], {
      env: { SVC_TOKEN: poor.token },
    });
    expect(tooDear.code).toBe(1);
    expect(tooDear.json().error).toMatch(/--max-price/);

    const anonymous = await user.run(['install', 'toolsmith/plain-skill', '--json'], { env: { SVC_TOKEN: undefined } });
    expect(anonymous.code).toBe(4);

    const missing = await user.run(['install', 'toolsmith/plain-skill@9.9.9', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.json().error).toMatch(/no published version 9.9.9/);
  });

  it('prints the approval URL when a spend policy asks (exit 3), and with --wait installs once the owner approves', async () => {
    const owner = await newCaller(app);
    await fundWallet(app, owner, 1000);
    const created = await owner.call('POST', '/v1/policies', { name: 'agent budget', maxPerPurchaseCents: 100 });
    expect(created.status).toBe(201);
    const policy = await json(created);
    const minted = await owner.call('POST', '/v1/auth/tokens', {
      name: 'agent',
      scopes: ['purchase', 'read', 'download'],
      policyId: policy.id,
    });
    expect(minted.status).toBe(201);
    const agentToken = (await json(minted)).token as string;
    await eventually(
      async () => (await fetch(`${app.url}/v1/wallet`, { headers: { authorization: `Bearer ${agentToken}` } })).status === 200,
    );
    const env = { SVC_TOKEN: agentToken };

    const asked = await user.run(['install', 'toolsmith/signed-skill', '--wallet', '--dir', project(), '--json'], { env });
    expect(asked.code).toBe(3);
    expect(asked.json()).toEqual(
      expect.objectContaining({
        status: 'approval_required',
        approvalUrl: expect.stringMatching(/^https:\/\/web\.example\.com\/approvals\//),
      }),
    );
    expect(asked.stderr).toContain(asked.json().approvalUrl);

    const waiting = user.spawn(['install', 'toolsmith/signed-skill', '--wallet', '--wait', '--dir', project(), '--json'], {
      env,
    });
    const done = finished(waiting);
    const approvalId = await new Promise<string>((resolve, reject) => {
      let seen = '';
      waiting.stderr!.on('data', (chunk) => {
        seen += chunk;
        const match = /Approve at: \S+\/approvals\/([0-9a-f-]{36})/.exec(seen);
        if (match) resolve(match[1]);
      });
      waiting.on('close', () => reject(new Error(`install ended before asking for approval:\n${seen}`)));
    });
    expect((await owner.call('POST', `/v1/approvals/${approvalId}/approve`)).status).toBe(200);
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.json().installed).toEqual(expect.objectContaining({ slug: 'signed-skill', signed: true }));
    expect((await json(await owner.call('GET', '/v1/wallet'))).balanceCents).toBe(300);
  });

  it('refuses a release signed by a key the vendor has since rotated away', async () => {
    const next = keyPair('ed25519');
    expect(
      (await vendor.call('POST', '/v1/vendor/keys', { publicKey: next.publicKeyPem, fingerprint: next.fingerprint })).status,
    ).toBe(201);
    const run = await user.run(['install', 'toolsmith/signed-skill', '--dir', project(), '--json']);
    expect(run.code).toBe(1);
    expect(run.json().error).toMatch(
      new RegExp(`signed with key ${key.fingerprint}, not the vendor's active key ${next.fingerprint}`),
    );
    await expect(stat(project())).rejects.toThrow(/ENOENT/);
  });
});
