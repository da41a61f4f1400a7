import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import {
  ApiTokenCommand,
  ApiTokenEvent,
  decideApiToken,
  evolveApiToken,
  initialApiTokenState,
  isUsable,
} from '../../../src/modules/auth/domain/api-token.decider';

const t0 = new Date('2026-11-22T10:00:00.000Z');
const days = (n: number) => new Date(t0.getTime() + n * 24 * 60 * 60 * 1000);
const fold = (events: ApiTokenEvent[]) => events.reduce(evolveApiToken, initialApiTokenState);
const when = (given: ApiTokenEvent[], command: ApiTokenCommand) => decideApiToken(command, fold(given));

const issue = (overrides: Partial<Extract<ApiTokenCommand, { type: 'IssueToken' }>> = {}): ApiTokenCommand => ({
  type: 'IssueToken',
  tokenId: 'tok-1',
  userId: 'user-1',
  name: 'laptop',
  scopes: [...SCOPES],
  tokenHash: 'a'.repeat(64),
  via: 'device',
  now: t0,
  ...overrides,
});

describe('API token decider', () => {
  const issued = when([], issue());

  it('issues a token with its hash, scopes in canonical order, and no expiry by default', () => {
    expect(when([], issue({ scopes: ['sell', 'read', 'read'] }))[0].data).toMatchObject({
      scopes: ['read', 'sell'],
      tokenHash: 'a'.repeat(64),
      expiresAt: null,
      policyId: null,
    });
    expect(isUsable(fold(issued), days(10_000))).toBe(true);
  });

  it('expires after expiresInDays', () => {
    const expiring = when([], issue({ expiresInDays: 30 }));
    expect(expiring[0].data).toMatchObject({ expiresAt: days(30).toISOString() });
    expect(isUsable(fold(expiring), days(29))).toBe(true);
    expect(isUsable(fold(expiring), days(30))).toBe(false);
  });

  it.each([
    [{ scopes: [] }, /scopes/],
    [{ scopes: ['admin'] as never }, /unknown values: admin/],
    [{ name: '   ' }, /name/],
    [{ expiresInDays: 0 }, /expiresInDays/],
    [{ expiresInDays: 1.5 }, /expiresInDays/],
  ])('refuses %j', (overrides, message) => {
    expect(() => when([], issue(overrides))).toThrow(message);
  });

  it('revokes immediately, once; a second revoke changes nothing', () => {
    const revoked = when(issued, { type: 'RevokeToken', byUserId: 'user-1', now: days(1) });
    expect(revoked).toEqual([
      { type: 'TokenRevoked', data: { tokenId: 'tok-1', userId: 'user-1', revokedAt: days(1).toISOString(), reason: 'revoked' } },
    ]);
    expect(isUsable(fold([...issued, ...revoked]), days(1))).toBe(false);
    expect(when([...issued, ...revoked], { type: 'RevokeToken', byUserId: 'user-1', now: days(2) })).toEqual([]);
  });

  it("treats someone else's token as not found", () => {
    expect(() => when(issued, { type: 'RevokeToken', byUserId: 'user-2', now: t0 })).toThrow(/not found/);
    expect(() => when([], { type: 'RevokeToken', byUserId: 'user-1', now: t0 })).toThrow(/not found/);
  });
});
