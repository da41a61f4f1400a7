import { randomBytes } from 'node:crypto';
import {
  decideDeviceCode,
  DeviceCodeCommand,
  DeviceCodeEvent,
  DeviceCodeState,
  evolveDeviceCode,
  formatUserCode,
  generateUserCode,
  initialDeviceCodeState,
  normalizeUserCode,
  pollStatus,
  USER_CODE_ALPHABET,
} from '../../../src/modules/auth/domain/device-code.decider';
import { Scope, SCOPES } from '../../../src/modules/auth/domain/api-token';

const t0 = new Date('2026-11-22T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const fold = (events: DeviceCodeEvent[]) => events.reduce(evolveDeviceCode, initialDeviceCodeState);

/** given events, when a command: the new events (or the thrown error). */
function when(given: DeviceCodeEvent[], command: DeviceCodeCommand): DeviceCodeEvent[] {
  return decideDeviceCode(command, fold(given));
}

/** An approval by a token holding every scope and never expiring. */
const approve = (userId: string, now: Date, approverScopes: Scope[] = [...SCOPES], approverExpiresAt: Date | null = null) =>
  ({ type: 'ApproveDeviceCode', userId, approverScopes, approverExpiresAt, now }) as const;

const issued = decideDeviceCode(
  { type: 'IssueDeviceCode', userCode: 'BCDFGHJK', scopes: [...SCOPES], now: t0 },
  initialDeviceCodeState,
);
const approved = [...issued, ...when(issued, approve('user-1', at(60)))];

describe('device code decider', () => {
  it('issues a code that lives 900 seconds with a poll interval', () => {
    expect(issued).toEqual([
      {
        type: 'DeviceCodeIssued',
        data: {
          userCode: 'BCDFGHJK',
          scopes: [...SCOPES],
          issuedAt: t0.toISOString(),
          expiresAt: at(900).toISOString(),
          interval: 5,
          clientName: null,
        },
      },
    ]);
  });

  it('records the name the client gives, trimmed; a blank, long or multi-line one is refused', () => {
    const issue = (clientName: string) =>
      decideDeviceCode(
        { type: 'IssueDeviceCode', userCode: 'BCDFGHJK', scopes: [...SCOPES], clientName, now: t0 },
        initialDeviceCodeState,
      );
    const [named] = issue('  svc 1.0.0 on box ');
    expect(named.data).toMatchObject({ clientName: 'svc 1.0.0 on box' });
    expect(fold([named])).toMatchObject({ status: 'pending', clientName: 'svc 1.0.0 on box' });
    for (const bad of ['  ', 'x'.repeat(65), 'a\nb', '\u001b[2J'])
      expect(() => issue(bad)).toThrow(expect.objectContaining({ code: 'invalid' }));
  });

  it('keeps answering authorization_pending until approved', () => {
    expect(when(issued, { type: 'PollDeviceCode', newTokenId: 't', now: at(10) })).toEqual([]);
    expect(pollStatus(fold(issued), at(10))).toBe('authorization_pending');
  });

  it('hands out a token at the first poll after approval, and never again', () => {
    const redeemed = when(approved, { type: 'PollDeviceCode', newTokenId: 'token-1', now: at(65) });
    expect(redeemed).toEqual([
      { type: 'DeviceCodeRedeemed', data: { tokenId: 'token-1', userId: 'user-1', redeemedAt: at(65).toISOString() } },
    ]);
    expect(() => when([...approved, ...redeemed], { type: 'PollDeviceCode', newTokenId: 'token-2', now: at(70) })).toThrow(
      /already been used/,
    );
  });

  it('expires after 900 seconds: approval refused, polls answer expired', () => {
    expect(() => when(issued, approve('u', at(900)))).toThrow(/expired/);
    expect(pollStatus(fold(issued), at(899))).toBe('authorization_pending');
    expect(pollStatus(fold(issued), at(900))).toBe('expired');
    expect(when(approved, { type: 'PollDeviceCode', newTokenId: 't', now: at(901) })).toEqual([]);
    expect(pollStatus(fold(approved), at(901))).toBe('expired');
  });

  it('grants only the scopes the approving token holds, and no longer than it lives', () => {
    const [approval] = when(issued, approve('user-1', at(60), ['read', 'download'], at(3600)));
    expect(approval.data).toMatchObject({ scopes: ['read', 'download'], notAfter: at(3600).toISOString() });
    expect(fold([...issued, approval])).toMatchObject({ status: 'approved', scopes: ['read', 'download'] });
  });

  it('refuses an approval by a token holding none of the requested scopes', () => {
    const narrow = decideDeviceCode(
      { type: 'IssueDeviceCode', userCode: 'BCDFGHJK', scopes: ['sell'], now: t0 },
      initialDeviceCodeState,
    );
    expect(() => when(narrow, approve('user-1', at(60), ['read']))).toThrow(/none of the scopes/);
  });

  it('refuses a second approval and unknown codes', () => {
    expect(() => when(approved, approve('user-2', at(61)))).toThrow(/already been approved/);
    expect(() => when([], approve('u', t0))).toThrow(/Unknown/);
    expect(() => when([], { type: 'PollDeviceCode', newTokenId: 't', now: t0 })).toThrow(/Unknown/);
  });

  it('records a denial: final, polls answer denied, and the code can then never be approved', () => {
    const deny = (userId: string, now: Date) => ({ type: 'DenyDeviceCode', userId, now }) as const;
    const denial = when(issued, deny('user-1', at(30)));
    expect(denial).toEqual([{ type: 'DeviceCodeDenied', data: { userId: 'user-1', deniedAt: at(30).toISOString() } }]);
    const denied = [...issued, ...denial];
    expect(fold(denied)).toEqual({ status: 'denied', userId: 'user-1' });
    expect(when(denied, { type: 'PollDeviceCode', newTokenId: 't', now: at(35) })).toEqual([]);
    expect(pollStatus(fold(denied), at(35))).toBe('denied');
    expect(pollStatus(fold(denied), at(901))).toBe('denied');
    expect(() => when(denied, approve('user-1', at(40)))).toThrow(/denied/);
    expect(() => when(denied, deny('user-1', at(40)))).toThrow(/denied/);
  });

  it('refuses to deny an approved, a redeemed, an expired or an unknown code', () => {
    const deny = (now: Date) => ({ type: 'DenyDeviceCode', userId: 'user-2', now }) as const;
    expect(() => when(approved, deny(at(61)))).toThrow(/already been approved/);
    const redeemed = [...approved, ...when(approved, { type: 'PollDeviceCode', newTokenId: 't', now: at(65) })];
    expect(() => when(redeemed, deny(at(66)))).toThrow(/already been approved/);
    expect(() => when(issued, deny(at(900)))).toThrow(/expired/);
    expect(() => when([], deny(t0))).toThrow(/Unknown/);
  });

  it('evolve only records: a late denial leaves an approved code approved', () => {
    const state = fold(approved);
    expect(evolveDeviceCode(state, { type: 'DeviceCodeDenied', data: { userId: 'x', deniedAt: at(61).toISOString() } })).toBe(
      state,
    );
  });

  it('never issues the same code twice', () => {
    expect(() => when(issued, { type: 'IssueDeviceCode', userCode: 'X', scopes: [], now: t0 })).toThrow();
  });

  it('evolve only records: a late approval event leaves a redeemed code redeemed', () => {
    const state: DeviceCodeState = { status: 'redeemed', userId: 'u', tokenId: 't' };
    expect(
      evolveDeviceCode(state, {
        type: 'DeviceCodeApproved',
        data: { userId: 'x', approvedAt: t0.toISOString(), scopes: ['read'], notAfter: null },
      }),
    ).toBe(state);
  });
});

describe('user codes', () => {
  it('are 8 characters from an alphabet without look-alikes', () => {
    for (let i = 0; i < 200; i++) {
      const code = generateUserCode(randomBytes);
      expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
    }
    expect(USER_CODE_ALPHABET).not.toMatch(/[01OIL]/);
  });

  it('are accepted case-insensitively, with or without a dash', () => {
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDFGHJK');
    expect(normalizeUserCode('BCDFGHJ')).toBeNull();
    expect(normalizeUserCode('BCDFGHJO')).toBeNull();
  });
});
