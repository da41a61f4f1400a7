import {
  signingKeysDecider,
  SigningKeyCommand,
  SigningKeyEvent,
  SigningKeysState,
} from '../../../src/modules/vendors/domain/signing-keys.decider';
import { at, errorOf, givenWhenThen } from '../../support/decider';

const vendorId = 'vendor-1';

const { fold, when, then } = givenWhenThen(signingKeysDecider);

const fp = (n: number) => String(n).repeat(64).slice(0, 64);
const register = (n: number, now = at(n)): SigningKeyCommand => ({
  type: 'RegisterKey',
  vendorId,
  fingerprint: fp(n),
  publicKey: `-----BEGIN PUBLIC KEY-----\nkey-${n}\n-----END PUBLIC KEY-----\n`,
  algorithm: n % 2 ? 'ed25519' : 'ecdsa-p256',
  now,
});
const revoke = (n: number, now = at(100 + n)): SigningKeyCommand => ({ type: 'RevokeKey', vendorId, fingerprint: fp(n), now });

const one = then([], register(1));
const two = then(one, register(2));

describe('signing keys decider', () => {
  it('registers the first key', () => {
    expect(one).toEqual([
      {
        type: 'SigningKeyRegistered',
        data: {
          vendorId,
          fingerprint: fp(1),
          publicKey: `-----BEGIN PUBLIC KEY-----\nkey-1\n-----END PUBLIC KEY-----\n`,
          algorithm: 'ed25519',
          registeredAt: at(1).toISOString(),
        },
      },
    ]);
    expect(fold(one)).toEqual({
      active: {
        fingerprint: fp(1),
        publicKey: `-----BEGIN PUBLIC KEY-----\nkey-1\n-----END PUBLIC KEY-----\n`,
        algorithm: 'ed25519',
      },
      seen: { [fp(1)]: 'active' },
    });
  });

  it('rotates the active key out when a second key is registered', () => {
    expect(when(one, register(2))).toEqual([
      {
        type: 'SigningKeyRotated',
        data: {
          vendorId,
          fingerprint: fp(2),
          publicKey: `-----BEGIN PUBLIC KEY-----\nkey-2\n-----END PUBLIC KEY-----\n`,
          algorithm: 'ecdsa-p256',
          previousFingerprint: fp(1),
          rotatedAt: at(2).toISOString(),
        },
      },
    ]);
    expect(fold(two)).toMatchObject({ active: { fingerprint: fp(2) }, seen: { [fp(1)]: 'retired', [fp(2)]: 'active' } });
  });

  it('refuses to register the active key again (409)', () => {
    expect(errorOf(() => when(one, register(1, at(5)))).code).toBe('conflict');
  });

  it('refuses a retired fingerprint (422)', () => {
    const error = errorOf(() => when(two, register(1, at(5))));
    expect(error.code).toBe('unprocessable');
    expect(error.message).toMatch(/retired/);
  });

  it('refuses a revoked fingerprint (422)', () => {
    const revoked = then(one, revoke(1));
    const error = errorOf(() => when(revoked, register(1, at(200))));
    expect(error.code).toBe('unprocessable');
    expect(error.message).toMatch(/revoked/);
  });

  it('refuses to revoke an unknown fingerprint (404)', () => {
    expect(errorOf(() => when([], revoke(1))).code).toBe('not_found');
    expect(errorOf(() => when(one, revoke(9))).code).toBe('not_found');
  });

  it('revokes the active key, leaving no active key', () => {
    expect(when(one, revoke(1))).toEqual([
      { type: 'SigningKeyRevoked', data: { vendorId, fingerprint: fp(1), wasActive: true, revokedAt: at(101).toISOString() } },
    ]);
    expect(fold(then(one, revoke(1)))).toEqual({ active: null, seen: { [fp(1)]: 'revoked' } });
  });

  it('revokes a retired key without touching the active one', () => {
    const events = when(two, revoke(1));
    expect(events).toEqual([
      { type: 'SigningKeyRevoked', data: { vendorId, fingerprint: fp(1), wasActive: false, revokedAt: at(101).toISOString() } },
    ]);
    expect(fold([...two, ...events])).toMatchObject({
      active: { fingerprint: fp(2) },
      seen: { [fp(1)]: 'revoked', [fp(2)]: 'active' },
    });
  });

  it('revoking twice changes nothing', () => {
    const revoked = then(one, revoke(1));
    expect(when(revoked, revoke(1, at(300)))).toEqual([]);
  });

  it('registers (not rotates) the next key after the active one was revoked', () => {
    const revoked = then(two, revoke(2));
    const events = when(revoked, register(3, at(400)));
    expect(events.map((e) => e.type)).toEqual(['SigningKeyRegistered']);
    expect(fold([...revoked, ...events])).toEqual({
      active: { fingerprint: fp(3), publicKey: expect.any(String), algorithm: 'ed25519' },
      seen: { [fp(1)]: 'retired', [fp(2)]: 'revoked', [fp(3)]: 'active' },
    });
  });
});
