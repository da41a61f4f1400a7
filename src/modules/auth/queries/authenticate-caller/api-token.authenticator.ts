import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { Authenticator, Principal } from '../../../../platform/http/access';
import { hashApiToken, isWellFormedApiToken } from '../../domain/api-token';
import { TokenUsage } from '../../commands/record-token-use/token-usage';
import { ApiTokensReader } from '../../read-models/api-tokens.reader';

/**
 * Resolves a Bearer `svc_` token to its caller for the guard, and records the
 * use (`lastUsedAt`) or the failed attempt. A deleted account's tokens are
 * revoked in the read model by the same event that deletes it, so they fail here.
 */
@Injectable()
export class ApiTokenAuthenticator extends Authenticator {
  constructor(
    private readonly tokens: ApiTokensReader,
    private readonly clock: Clock,
    private readonly usage: TokenUsage,
  ) {
    super();
  }

  async authenticate(authorization: string | undefined, clientAddress: string): Promise<Principal> {
    try {
      const principal = await this.resolve(authorization);
      this.usage.used(principal.tokenId);
      return principal;
    } catch (error) {
      if (error instanceof DomainError) this.usage.failed(error.message, clientAddress);
      throw error;
    }
  }

  private async resolve(header: string | undefined): Promise<Principal> {
    if (!header) throw new DomainError('unauthenticated', 'Missing Authorization header: send "Authorization: Bearer svc_..."');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    // The checksum refuses a mistyped token without a database lookup.
    if (!match || !isWellFormedApiToken(match[1])) throw new DomainError('unauthenticated', 'Malformed API token');
    const token = await this.tokens.findByHash(hashApiToken(match[1]));
    if (!token) throw new DomainError('unauthenticated', 'Unknown API token');
    if (token.revokedAt) throw new DomainError('unauthenticated', 'This API token has been revoked');
    if (token.expiresAt && token.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new DomainError('unauthenticated', 'This API token has expired');
    }
    return {
      userId: token.userId,
      tokenId: token.id,
      tokenName: token.name,
      scopes: token.scopes,
      policyId: token.policyId,
      expiresAt: token.expiresAt,
    };
  }
}
