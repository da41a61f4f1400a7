import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { expectedAt, foldStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { parseSigningKey } from '../../domain/signing-key';
import { signingKeysDecider, signingKeysStreamId } from '../../domain/signing-keys.decider';
import { VendorEvents } from '../../events';
import { VendorsReader } from '../../read-models/vendors.reader';
import { RegisteredSigningKey, RegisterSigningKeyCommand } from './register-signing-key.command';

/** One vendor per key: otherwise another vendor could re-upload a signed archive as its own. */
const fingerprintStreamId = (fingerprint: string) => `signing-key-${fingerprint}`;

@CommandHandler(RegisterSigningKeyCommand)
export class RegisterSigningKeyHandler implements ICommandHandler<RegisterSigningKeyCommand, RegisteredSigningKey> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly vendors: VendorsReader,
  ) {}

  async execute({ vendorId, publicKey, fingerprint }: RegisterSigningKeyCommand): Promise<RegisteredSigningKey> {
    await this.vendors.require(vendorId);
    const parsed = parseSigningKey(publicKey);
    // The server recomputes the fingerprint; a caller's that differs means the wrong key was sent.
    if (fingerprint.toLowerCase() !== parsed.fingerprint) {
      throw new DomainError(
        'invalid',
        "fingerprint does not match publicKey: it must be the lowercase hex SHA-256 of the key's DER-encoded SubjectPublicKeyInfo",
      );
    }
    const reservationId = fingerprintStreamId(parsed.fingerprint);
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
      { streamId, events, expected: expectedAt(revision) },
      {
        streamId: reservationId,
        events: [{ type: VendorEvents.SigningKeyFingerprintReserved, data: { vendorId } }],
        expected: 'no_stream',
      },
    ]);
    const action = events[0].type === VendorEvents.SigningKeyRotated ? 'rotate' : 'register';
    return { action, fingerprint: parsed.fingerprint };
  }
}
