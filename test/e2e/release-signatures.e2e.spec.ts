import { createPublicKey, verify } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';
import { keyPair } from '../support/signing-keys';
import { buildZip } from '../support/zip-builder';

const packageZip = (slug: string, version = '1.0.0') =>
  buildZip([
    {
      name: 'manifest.json',
      data: JSON.stringify({ slug, version, type: 'skill', title: slug, description: 'Signed.', targets: ['claude-code'] }),
    },
    { name: 'README.md', data: `# ${slug}\n` },
  ]);

function uploadForm(archive: Buffer, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('archive', new Blob([new Uint8Array(archive)], { type: 'application/zip' }), 'package.zip');
  return form;
}

/** What a client needs to verify a download itself: the release's signature and the vendor's public key. */
describe('release signatures for clients', () => {
  let app: TestApp;
  let vendor: Caller;

  beforeAll(async () => {
    app = await startTestApp();
    vendor = await newCaller(app);
    expect((await vendor.call('POST', '/v1/vendor/profile', { slug: 'signer', displayName: 'Signer' })).status).toBe(201);
  });
  afterAll(() => app?.close());

  /** Uploads and publishes; a release still being scanned is published when its scan passes, so wait for the listing. */
  const publishUpload = async (slug: string, archive: Buffer, fields: Record<string, string>) => {
    const uploaded = await vendor.call('POST', '/v1/vendor/releases', uploadForm(archive, fields));
    expect(uploaded.status).toBe(201);
    const { release } = await json(uploaded);
    expect((await vendor.call('PATCH', `/v1/vendor/releases/${release.id}/publish`)).status).toBe(200);
    await eventually(async () => (await fetch(`${app.url}/v1/listings/signer/${slug}/releases`)).status === 200, {
      description: `release ${release.id} to be scanned and published`,
    });
    return release.id as string;
  };

  it('answers the active key publicly: none at first, then the registered one; 404 for no such vendor', async () => {
    expect(await json(await fetch(`${app.url}/v1/vendors/signer/signing-key`))).toEqual({
      vendorSlug: 'signer',
      activeKey: null,
    });
    const missing = await fetch(`${app.url}/v1/vendors/nobody-here/signing-key`);
    expect(missing.status).toBe(404);
    expect((await json(missing)).message).toMatch(/nobody-here/);
  });

  it('lists a signed release with its signature and key fingerprint, which verify against the public key', async () => {
    const key = keyPair('ed25519');
    expect(
      (await vendor.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: key.fingerprint })).status,
    ).toBe(201);
    const signed = packageZip('signed-pkg');
    const signature = key.sign(signed);
    await publishUpload('signed-pkg', signed, { priceCents: '0', signature });
    const unsigned = packageZip('plain-pkg');
    await publishUpload('plain-pkg', unsigned, { priceCents: '0' });

    const { releases } = await json(await fetch(`${app.url}/v1/listings/signer/signed-pkg/releases`));
    expect(releases).toEqual([
      expect.objectContaining({ version: '1.0.0', scanStatus: 'passed', signature, signingKeyFingerprint: key.fingerprint }),
    ]);
    const publicKey = await json(await fetch(`${app.url}/v1/vendors/signer/signing-key`));
    expect(publicKey).toEqual({
      vendorSlug: 'signer',
      activeKey: { publicKey: expect.any(String), fingerprint: key.fingerprint },
    });
    expect(verify(null, signed, createPublicKey(publicKey.activeKey.publicKey), Buffer.from(signature, 'base64'))).toBe(true);

    const plain = await json(await fetch(`${app.url}/v1/listings/signer/plain-pkg/releases`));
    expect(plain.releases).toEqual([expect.objectContaining({ signature: null, signingKeyFingerprint: null })]);
    const [row] = await app.server.app
      .get(DataSource)
      .query(`SELECT signature FROM releases WHERE version = '1.0.0' AND signature IS NOT NULL`);
    expect(row.signature).toBe(signature);
  });
});
