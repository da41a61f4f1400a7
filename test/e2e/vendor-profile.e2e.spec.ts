import { startTestApp, TestApp } from '../support/app';
import { Caller, newCaller } from '../support/accounts';
import { json } from '../support/http';
import { keyPair } from '../support/signing-keys';

describe('vendor profiles and signing keys', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it('creates a profile (201), updates it (200), and returns it with the verification fields', async () => {
    const vendor = await newCaller(app);
    const created = await vendor.call('POST', '/v1/vendor/profile', {
      slug: 'north-wind',
      displayName: 'North Wind',
      bio: 'Agents.',
    });
    expect(created.status).toBe(201);
    expect(await json(created)).toEqual({
      slug: 'north-wind',
      displayName: 'North Wind',
      bio: 'Agents.',
      website: null,
      domainVerified: false,
      githubVerified: false,
      githubOrg: null,
      verified: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const updated = await vendor.call('POST', '/v1/vendor/profile', {
      slug: 'north-wind-labs',
      displayName: 'North Wind Labs',
      website: 'https://northwind.example.org',
    });
    expect(updated.status).toBe(200);
    // An omitted bio stays; null clears it.
    expect(await json(updated)).toMatchObject({ slug: 'north-wind-labs', displayName: 'North Wind Labs', bio: 'Agents.' });
    const cleared = await vendor.call('POST', '/v1/vendor/profile', {
      slug: 'north-wind-labs',
      displayName: 'North Wind Labs',
      bio: null,
    });
    expect(await json(cleared)).toMatchObject({ bio: null, website: 'https://northwind.example.org' });
    expect(await json(await vendor.call('GET', '/v1/vendor/profile'))).toMatchObject({ slug: 'north-wind-labs' });

    // The old slug stays with its vendor, so old links never lead to someone else's packages.
    const other = await newCaller(app);
    expect((await other.call('POST', '/v1/vendor/profile', { slug: 'north-wind', displayName: 'Other' })).status).toBe(409);
    expect((await vendor.call('POST', '/v1/vendor/profile', { slug: 'north-wind', displayName: 'North Wind' })).status).toBe(200);
  });

  it('validates every field and names it', async () => {
    const vendor = await newCaller(app);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ slug: 'a', displayName: 'A' }, /slug/],
      [{ slug: '-acme', displayName: 'A' }, /slug/],
      [{ slug: 'acme-', displayName: 'A' }, /slug/],
      [{ slug: 'Acme', displayName: 'A' }, /slug/],
      [{ slug: 'x'.repeat(33), displayName: 'A' }, /slug/],
      [{ slug: 'admin', displayName: 'A' }, /reserved/],
      [{ slug: 'v1', displayName: 'A' }, /reserved/],
      [{ slug: 'okay', displayName: '' }, /displayName/],
      [{ slug: 'okay', displayName: 'x'.repeat(65) }, /displayName/],
      [{ slug: 'okay', displayName: 'A', bio: 'x'.repeat(501) }, /bio/],
      [{ slug: 'okay', displayName: 'A', website: 'ftp://example.com' }, /website/],
      [{ slug: 'okay', displayName: 'A', website: 'not a url' }, /website/],
      [{ slug: 'okay', displayName: 'A', extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const response = await vendor.call('POST', '/v1/vendor/profile', body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect((await json(response)).message).toMatch(message);
    }
  });

  it('keeps slugs unique, also when two vendors race for one', async () => {
    const first = await newCaller(app);
    expect((await first.call('POST', '/v1/vendor/profile', { slug: 'taken', displayName: 'First' })).status).toBe(201);
    const second = await newCaller(app);
    const refused = await second.call('POST', '/v1/vendor/profile', { slug: 'taken', displayName: 'Second' });
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toMatch(/taken/);

    const racers = await Promise.all(Array.from({ length: 6 }, () => newCaller(app)));
    const statuses = await Promise.all(
      racers.map((r) => r.call('POST', '/v1/vendor/profile', { slug: 'contested', displayName: 'Racer' })),
    );
    expect(statuses.map((s) => s.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('answers 401 without a token, 403 without the sell scope, and 403 naming the missing profile', async () => {
    expect((await fetch(`${app.url}/v1/vendor/profile`, { method: 'POST' })).status).toBe(401);
    const reader = await newCaller(app, ['read']);
    expect((await reader.call('POST', '/v1/vendor/profile', { slug: 'reader', displayName: 'R' })).status).toBe(403);
    const noProfile = await newCaller(app);
    for (const [method, route] of [
      ['GET', '/v1/vendor/profile'],
      ['GET', '/v1/vendor/keys'],
      ['GET', '/v1/vendor/verification'],
      ['POST', '/v1/vendor/verify/domain'],
      ['PATCH', '/v1/vendor/releases/7f1d2a3e-1111-4222-8333-944445555666/publish'],
    ]) {
      const response = await noProfile.call(method, route);
      expect({ route, status: response.status }).toEqual({ route, status: 403 });
      expect((await json(response)).message).toMatch(/vendor profile/);
    }
  });

  describe('signing keys', () => {
    let vendor: Caller;
    beforeAll(async () => {
      vendor = await newCaller(app);
      await vendor.call('POST', '/v1/vendor/profile', { slug: 'keyed', displayName: 'Keyed' });
    });

    it('registers, rotates and revokes, logging each action with its time', async () => {
      expect(await json(await vendor.call('GET', '/v1/vendor/keys'))).toEqual({ activeKey: null, log: [] });
      const first = keyPair('ed25519');
      const registered = await vendor.call('POST', '/v1/vendor/keys', {
        publicKey: first.publicKeyPem,
        fingerprint: first.fingerprint,
      });
      expect(registered.status).toBe(201);
      expect(await json(registered)).toEqual({ action: 'register', fingerprint: first.fingerprint });

      const second = keyPair('p256');
      const rotated = await vendor.call('POST', '/v1/vendor/keys', {
        publicKey: second.publicKeyPem,
        fingerprint: second.fingerprint.toUpperCase(),
      });
      expect(await json(rotated)).toEqual({ action: 'rotate', fingerprint: second.fingerprint });

      const keys = await json(await vendor.call('GET', '/v1/vendor/keys'));
      expect(keys.activeKey).toEqual({ publicKey: second.publicKeyPem, fingerprint: second.fingerprint });
      expect(keys.log).toEqual([
        { action: 'rotate', fingerprint: second.fingerprint, createdAt: expect.any(String) },
        { action: 'register', fingerprint: first.fingerprint, createdAt: expect.any(String) },
      ]);

      // A retired key cannot come back.
      const again = await vendor.call('POST', '/v1/vendor/keys', {
        publicKey: first.publicKeyPem,
        fingerprint: first.fingerprint,
      });
      expect(again.status).toBe(422);

      expect(await json(await vendor.call('DELETE', `/v1/vendor/keys/${second.fingerprint}`))).toEqual({ ok: true });
      const after = await json(await vendor.call('GET', '/v1/vendor/keys'));
      expect(after.activeKey).toBeNull();
      expect(after.log[0]).toEqual({ action: 'revoke', fingerprint: second.fingerprint, createdAt: expect.any(String) });
      expect((await vendor.call('DELETE', `/v1/vendor/keys/${'0'.repeat(64)}`)).status).toBe(404);

      // With no active key, the next one is a registration again.
      const third = keyPair('ed25519');
      expect(
        await json(
          await vendor.call('POST', '/v1/vendor/keys', { publicKey: third.publicKeyPem, fingerprint: third.fingerprint }),
        ),
      ).toEqual({
        action: 'register',
        fingerprint: third.fingerprint,
      });
    });

    it('recomputes the fingerprint and refuses mismatches, garbage and unsupported algorithms', async () => {
      const key = keyPair('ed25519');
      const mismatch = await vendor.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: 'a'.repeat(64) });
      expect(mismatch.status).toBe(400);
      expect((await json(mismatch)).message).toMatch(/fingerprint/);
      const garbage = await vendor.call('POST', '/v1/vendor/keys', {
        publicKey: '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n',
        fingerprint: key.fingerprint,
      });
      expect(garbage.status).toBe(400);
      const rsa = keyPair('rsa');
      const unsupported = await vendor.call('POST', '/v1/vendor/keys', {
        publicKey: rsa.publicKeyPem,
        fingerprint: rsa.fingerprint,
      });
      expect(unsupported.status).toBe(400);
      expect((await json(unsupported)).message).toMatch(/Ed25519 or ECDSA P-256/);
      expect((await vendor.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem })).status).toBe(400);
    });
  });

  it('keeps a public key to one vendor', async () => {
    const key = keyPair('ed25519');
    const first = await newCaller(app);
    await first.call('POST', '/v1/vendor/profile', { slug: 'key-owner', displayName: 'Owner' });
    expect(
      (await first.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: key.fingerprint })).status,
    ).toBe(201);
    const copier = await newCaller(app);
    await copier.call('POST', '/v1/vendor/profile', { slug: 'key-copier', displayName: 'Copier' });
    const copied = await copier.call('POST', '/v1/vendor/keys', { publicKey: key.publicKeyPem, fingerprint: key.fingerprint });
    expect(copied.status).toBe(409);
    expect((await json(copied)).message).toMatch(/another vendor/);
  });
});
