import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { VendorEvents } from '../events';
import { SigningAlgorithm } from './signing-key';

/**
 * A vendor's release-signing keys (stream `vendor-keys-<vendorId>`): at most
 * one active key; registering another rotates it out. A fingerprint once used
 * is never accepted again, so a retired or revoked key cannot come back.
 */
type KeyData = { vendorId: string; fingerprint: string; publicKey: string; algorithm: SigningAlgorithm };

export type SigningKeyEvent =
  | { type: typeof VendorEvents.SigningKeyRegistered; data: KeyData & { registeredAt: string } }
  | { type: typeof VendorEvents.SigningKeyRotated; data: KeyData & { previousFingerprint: string; rotatedAt: string } }
  | {
      type: typeof VendorEvents.SigningKeyRevoked;
      data: { vendorId: string; fingerprint: string; wasActive: boolean; revokedAt: string };
    };

export const SIGNING_KEY_EVENT_TYPES: SigningKeyEvent['type'][] = [
  VendorEvents.SigningKeyRegistered,
  VendorEvents.SigningKeyRotated,
  VendorEvents.SigningKeyRevoked,
];

export interface SigningKeysState {
  active: { fingerprint: string; publicKey: string; algorithm: SigningAlgorithm } | null;
  /** Every fingerprint ever registered, with whether it was revoked. */
  seen: Record<string, 'retired' | 'revoked' | 'active'>;
}

export type SigningKeyCommand =
  ({ type: 'RegisterKey'; now: Date } & KeyData) | { type: 'RevokeKey'; vendorId: string; fingerprint: string; now: Date };

export const initialSigningKeysState: SigningKeysState = { active: null, seen: {} };

export function decideSigningKeys(command: SigningKeyCommand, state: SigningKeysState): SigningKeyEvent[] {
  switch (command.type) {
    case 'RegisterKey': {
      const { vendorId, fingerprint, publicKey, algorithm } = command;
      const seen = state.seen[fingerprint];
      if (seen === 'active') throw new DomainError('conflict', 'This key is already the active signing key');
      if (seen) throw new DomainError('unprocessable', `This key was ${seen} and cannot be registered again; generate a new key`);
      if (!state.active)
        return [
          {
            type: VendorEvents.SigningKeyRegistered,
            data: { vendorId, fingerprint, publicKey, algorithm, registeredAt: command.now.toISOString() },
          },
        ];
      return [
        {
          type: VendorEvents.SigningKeyRotated,
          data: {
            vendorId,
            fingerprint,
            publicKey,
            algorithm,
            previousFingerprint: state.active.fingerprint,
            rotatedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'RevokeKey': {
      const seen = state.seen[command.fingerprint];
      if (!seen) throw new DomainError('not_found', 'No signing key with this fingerprint');
      if (seen === 'revoked') return [];
      return [
        {
          type: VendorEvents.SigningKeyRevoked,
          data: {
            vendorId: command.vendorId,
            fingerprint: command.fingerprint,
            wasActive: seen === 'active',
            revokedAt: command.now.toISOString(),
          },
        },
      ];
    }
  }
}

export function evolveSigningKeys(state: SigningKeysState, event: SigningKeyEvent): SigningKeysState {
  switch (event.type) {
    case VendorEvents.SigningKeyRegistered:
    case VendorEvents.SigningKeyRotated: {
      const seen = { ...state.seen };
      if (state.active) seen[state.active.fingerprint] = 'retired';
      seen[event.data.fingerprint] = 'active';
      const { fingerprint, publicKey, algorithm } = event.data;
      return { active: { fingerprint, publicKey, algorithm }, seen };
    }
    case VendorEvents.SigningKeyRevoked:
      return {
        active: state.active?.fingerprint === event.data.fingerprint ? null : state.active,
        seen: { ...state.seen, [event.data.fingerprint]: 'revoked' },
      };
  }
}

export const signingKeysDecider: Decider<SigningKeyCommand, SigningKeysState, SigningKeyEvent> = {
  decide: decideSigningKeys,
  evolve: evolveSigningKeys,
  initialState: initialSigningKeysState,
};

export const signingKeysStreamId = (vendorId: string) => `vendor-keys-${vendorId}`;
