import { Injectable } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { decideOnStream } from '../../../event-store/fold-stream';
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
    const { events } = await decideOnStream(this.store, signingKeysStreamId(vendorId), signingKeysDecider, {
      type: 'RegisterKey',
      vendorId,
      fingerprint: parsed.fingerprint,
      publicKey: parsed.publicKeyPem,
      algorithm: parsed.algorithm,
      now: this.clock.now(),
    });
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
