import { Injectable } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { decideOnStream, foldStream } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { parseSigningKey } from '../domain/signing-key';
import { signingKeysDecider, signingKeysStreamId } from '../domain/signing-keys.decider';

@Injectable()
export class SigningKeysService {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** The server recomputes the fingerprint; a caller's that differs means the wrong key was sent. */
  async register(
    vendorId: string,
    publicKey: string,
    claimedFingerprint: string,
  ): Promise<{ action: 'register' | 'rotate'; fingerprint: string }> {
    const parsed = parseSigningKey(publicKey);
    if (claimedFingerprint.toLowerCase() !== parsed.fingerprint) {
      throw new DomainError(
        'invalid',
        "fingerprint does not match publicKey: it must be the lowercase hex SHA-256 of the key's DER-encoded SubjectPublicKeyInfo",
      );
    }
    // A public key belongs to one vendor: otherwise another vendor could re-upload a signed archive as its own.
    const reservationId = `signing-key-${parsed.fingerprint}`;
    const holder = (await this.store.readStream(reservationId))[0];
    if (holder && holder.data.vendorId !== vendorId)
      throw new DomainError('conflict', 'This key is registered by another vendor');
    const streamId = signingKeysStreamId(vendorId);
    const { state, revision } = await foldStream(
      this.store,
      streamId,
      signingKeysDecider.evolve,
      signingKeysDecider.initialState,
    );
    const events = signingKeysDecider.decide(
      {
        type: 'RegisterKey',
        vendorId,
        fingerprint: parsed.fingerprint,
        publicKey: parsed.publicKeyPem,
        algorithm: parsed.algorithm,
        now: this.clock.now(),
      },
      state,
    );
    await this.store.appendAtomically([
      { streamId, events, expected: revision < 0 ? 'no_stream' : revision },
      { streamId: reservationId, events: [{ type: 'SigningKeyFingerprintReserved', data: { vendorId } }], expected: 'no_stream' },
    ]);
    return { action: events[0].type === 'SigningKeyRotated' ? 'rotate' : 'register', fingerprint: parsed.fingerprint };
  }

  async revoke(vendorId: string, fingerprint: string): Promise<void> {
    await decideOnStream(this.store, signingKeysStreamId(vendorId), signingKeysDecider, {
      type: 'RevokeKey',
      vendorId,
      fingerprint: fingerprint.toLowerCase(),
      now: this.clock.now(),
    });
  }
}
