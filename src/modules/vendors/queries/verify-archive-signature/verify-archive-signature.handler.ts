import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { foldStream } from '../../../../event-store/fold-stream';
import { DomainError } from '../../../../platform/errors/domain-error';
import { parseSigningKey, verifyArchiveSignature } from '../../domain/signing-key';
import { signingKeysDecider, signingKeysStreamId } from '../../domain/signing-keys.decider';
import { VerifiedSignature, VerifyArchiveSignatureQuery } from './verify-archive-signature.query';

/**
 * The key comes from the log, not a read model (the one query that reads a
 * stream): a key rotated a moment ago must already stop verifying.
 */
@QueryHandler(VerifyArchiveSignatureQuery)
export class VerifyArchiveSignatureHandler implements IQueryHandler<VerifyArchiveSignatureQuery, VerifiedSignature> {
  constructor(private readonly store: EventStore) {}

  async execute({ vendorId, archive, signature }: VerifyArchiveSignatureQuery): Promise<VerifiedSignature> {
    const { state } = await foldStream(
      this.store,
      signingKeysStreamId(vendorId),
      signingKeysDecider.evolve,
      signingKeysDecider.initialState,
    );
    if (!state.active) {
      throw new DomainError(
        'invalid',
        'The upload carries a signature but the vendor has no active signing key: register one with POST /v1/vendor/keys',
      );
    }
    if (!verifyArchiveSignature(parseSigningKey(state.active.publicKey), archive, signature)) {
      throw new DomainError('invalid', `signature does not verify against the active signing key ${state.active.fingerprint}`);
    }
    return { fingerprint: state.active.fingerprint };
  }
}
