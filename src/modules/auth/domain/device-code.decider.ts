import { DomainError } from '../../../platform/errors/domain-error';
import { codePointLength, isSingleLineText } from '../../../platform/text/text-rules';
import { Scope } from './api-token';
import { AuthEvents } from '../events';

/**
 * The device authorization grant (RFC 8628) for one device code, as a pure
 * decider. The stream is keyed by a hash of the device code, never the code.
 * The token is minted at the first poll after approval and handed out then
 * only: no plaintext token is ever stored. A denial is final: the code can
 * then never be approved, and polls answer `denied`.
 */
export const DEVICE_CODE_LIFETIME_SECONDS = 900;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** The longest client name a device start may give (in code points). */
export const CLIENT_NAME_MAX = 64;

export type DeviceCodeEvent =
  | {
      type: typeof AuthEvents.DeviceCodeIssued;
      /** `clientName`: what the client calls itself (unverified, shown on the device page); null when it gave none. */
      data: {
        userCode: string;
        scopes: Scope[];
        issuedAt: string;
        expiresAt: string;
        interval: number;
        clientName: string | null;
      };
    }
  | {
      type: typeof AuthEvents.DeviceCodeApproved;
      /** `scopes`: those requested that the approving token also holds; `notAfter`: when the approving token expires. */
      data: { userId: string; approvedAt: string; scopes: Scope[]; notAfter: string | null };
    }
  | { type: typeof AuthEvents.DeviceCodeRedeemed; data: { tokenId: string; userId: string; redeemedAt: string } }
  /** `userId`: the signed-in person who refused the sign-in. */
  | { type: typeof AuthEvents.DeviceCodeDenied; data: { userId: string; deniedAt: string } };

export type DeviceCodeState =
  | { status: 'none' }
  | { status: 'pending'; userCode: string; scopes: Scope[]; expiresAt: number; interval: number; clientName: string | null }
  | {
      status: 'approved';
      userCode: string;
      scopes: Scope[];
      expiresAt: number;
      interval: number;
      clientName: string | null;
      userId: string;
      notAfter: string | null;
    }
  | { status: 'redeemed'; userId: string; tokenId: string }
  | { status: 'denied'; userId: string };

export type DeviceCodeCommand =
  | { type: 'IssueDeviceCode'; userCode: string; scopes: Scope[]; clientName?: string | null; now: Date }
  | { type: 'ApproveDeviceCode'; userId: string; approverScopes: Scope[]; approverExpiresAt: Date | null; now: Date }
  | { type: 'DenyDeviceCode'; userId: string; now: Date }
  | { type: 'PollDeviceCode'; newTokenId: string; now: Date };

export const initialDeviceCodeState: DeviceCodeState = { status: 'none' };

export function decideDeviceCode(command: DeviceCodeCommand, state: DeviceCodeState): DeviceCodeEvent[] {
  switch (command.type) {
    case 'IssueDeviceCode': {
      if (state.status !== 'none') throw new DomainError('conflict', 'This device code was already issued');
      const clientName = command.clientName?.trim() ?? null;
      if (
        clientName !== null &&
        (codePointLength(clientName) < 1 || codePointLength(clientName) > CLIENT_NAME_MAX || !isSingleLineText(clientName))
      )
        throw new DomainError(
          'invalid',
          `clientName must be 1-${CLIENT_NAME_MAX} characters on one line, without control characters`,
        );
      const expiresAt = new Date(command.now.getTime() + DEVICE_CODE_LIFETIME_SECONDS * 1000);
      return [
        {
          type: AuthEvents.DeviceCodeIssued,
          data: {
            userCode: command.userCode,
            scopes: command.scopes,
            issuedAt: command.now.toISOString(),
            expiresAt: expiresAt.toISOString(),
            interval: DEVICE_POLL_INTERVAL_SECONDS,
            clientName,
          },
        },
      ];
    }
    case 'ApproveDeviceCode': {
      assertAwaitingDecision(state, command.now);
      // A sign-in never grants more than the credential that approved it: fewer scopes, no longer life.
      const scopes = state.scopes.filter((scope) => command.approverScopes.includes(scope));
      if (scopes.length === 0) throw new DomainError('forbidden', 'This token holds none of the scopes the sign-in asks for');
      return [
        {
          type: AuthEvents.DeviceCodeApproved,
          data: {
            userId: command.userId,
            approvedAt: command.now.toISOString(),
            scopes,
            notAfter: command.approverExpiresAt?.toISOString() ?? null,
          },
        },
      ];
    }
    case 'DenyDeviceCode': {
      assertAwaitingDecision(state, command.now);
      return [{ type: AuthEvents.DeviceCodeDenied, data: { userId: command.userId, deniedAt: command.now.toISOString() } }];
    }
    case 'PollDeviceCode': {
      if (state.status === 'none') throw new DomainError('not_found', 'Unknown device code');
      if (state.status === 'redeemed') throw new DomainError('invalid', 'This device code has already been used');
      if (state.status !== 'approved') return [];
      if (command.now.getTime() >= state.expiresAt) return [];
      return [
        {
          type: AuthEvents.DeviceCodeRedeemed,
          data: { tokenId: command.newTokenId, userId: state.userId, redeemedAt: command.now.toISOString() },
        },
      ];
    }
  }
}

/** Approving and denying are both the one decision a pending, unexpired code waits for. */
function assertAwaitingDecision(
  state: DeviceCodeState,
  now: Date,
): asserts state is Extract<DeviceCodeState, { status: 'pending' }> {
  if (state.status === 'none') throw new DomainError('not_found', 'Unknown user code');
  if (state.status === 'denied') throw new DomainError('conflict', 'This sign-in was already denied; start sign-in again');
  if (state.status !== 'pending') throw new DomainError('conflict', 'This code has already been approved');
  if (now.getTime() >= state.expiresAt) throw new DomainError('unprocessable', 'This code has expired; start sign-in again');
}

export function evolveDeviceCode(state: DeviceCodeState, event: DeviceCodeEvent): DeviceCodeState {
  switch (event.type) {
    case AuthEvents.DeviceCodeIssued:
      return {
        status: 'pending',
        userCode: event.data.userCode,
        scopes: event.data.scopes,
        expiresAt: Date.parse(event.data.expiresAt),
        interval: event.data.interval,
        clientName: event.data.clientName,
      };
    case AuthEvents.DeviceCodeApproved:
      return state.status === 'pending'
        ? { ...state, status: 'approved', userId: event.data.userId, scopes: event.data.scopes, notAfter: event.data.notAfter }
        : state;
    case AuthEvents.DeviceCodeRedeemed:
      return { status: 'redeemed', userId: event.data.userId, tokenId: event.data.tokenId };
    case AuthEvents.DeviceCodeDenied:
      return state.status === 'pending' ? { status: 'denied', userId: event.data.userId } : state;
  }
}

/** What a poll answers, given the state after deciding. */
export function pollStatus(state: DeviceCodeState, now: Date): 'authorization_pending' | 'expired' | 'approved' | 'denied' {
  if (state.status === 'redeemed') return 'approved';
  if (state.status === 'denied') return 'denied';
  if (state.status === 'none' || now.getTime() >= state.expiresAt) return 'expired';
  return state.status === 'approved' ? 'approved' : 'authorization_pending';
}

/** RFC 8628 user codes: 8 characters from an alphabet with no vowels and no look-alikes (0/O, 1/I/L). */
export const USER_CODE_ALPHABET = 'BCDFGHJKMNPQRSTVWXZ23456789';

export function generateUserCode(random: (size: number) => Buffer): string {
  const bytes = random(16);
  let code = '';
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % USER_CODE_ALPHABET.length);
  for (const byte of bytes) {
    if (byte < limit) code += USER_CODE_ALPHABET[byte % USER_CODE_ALPHABET.length];
    if (code.length === 8) return code;
  }
  return code + generateUserCode(random).slice(code.length);
}

/** Accepts `abcd-efgh`, `ABCDEFGH`, `abcd efgh`: case and separators do not matter. */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== 8) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
