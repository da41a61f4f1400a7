import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { parseSigningKey, verifyArchiveSignature } from '../domain/signing-key';
import { signingKeysDecider, signingKeysStreamId } from '../domain/signing-keys.decider';

/**
 * Checks a detached archive signature against the vendor's active key and
 * answers with that key's fingerprint; a bad signature is a 400. The key comes
 * from the log, not a read model, so a key rotated a moment ago already stops
 * verifying.
 */
export class VerifyArchiveSignatureQuery extends Query<{ fingerprint: string }> {
  constructor(
    readonly vendorId: string,
    readonly archive: Buffer,
    readonly signature: string,
  ) {
    super();
  }
}

@QueryHandler(VerifyArchiveSignatureQuery)
export class VerifyArchiveSignatureHandler implements IQueryHandler<VerifyArchiveSignatureQuery, { fingerprint: string }> {
  constructor(private readonly store: EventStore) {}

  async execute({ vendorId, archive, signature }: VerifyArchiveSignatureQuery): Promise<{ fingerprint: string }> {
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
