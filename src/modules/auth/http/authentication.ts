import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { hashApiToken, isWellFormedApiToken, Scope } from '../domain/api-token';
import { TokenUsage } from './token-usage';

/** Who is calling: resolved from a Bearer token by the guard. */
export interface Principal {
  userId: string;
  tokenId: string;
  scopes: Scope[];
}

const ACCESS = 'svc:access';
type Access = { kind: 'public' } | { kind: 'optional' } | { kind: 'any' } | { kind: 'scope'; scope: Scope };

/** No token needed. */
export const Public = () => SetMetadata(ACCESS, { kind: 'public' } satisfies Access);
/** No token needed, but one that is sent must be valid; the route sees the caller when there is one. */
export const OptionalToken = () => SetMetadata(ACCESS, { kind: 'optional' } satisfies Access);
/** Any valid token (the spec's `any`). */
export const AnyToken = () => SetMetadata(ACCESS, { kind: 'any' } satisfies Access);
/** A valid token carrying this scope; others get 403. */
export const RequireScope = (scope: Scope) => SetMetadata(ACCESS, { kind: 'scope', scope } satisfies Access);

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<{ principal: Principal }>().principal,
);

/** The caller on an @OptionalToken route, or null when anonymous. */
export const OptionalPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal | null =>
    context.switchToHttp().getRequest<{ principal?: Principal }>().principal ?? null,
);

/**
 * Every route needs a token unless marked @Public: a route that forgot its
 * decorator fails closed. 401 for a missing, malformed, unknown, expired or
 * revoked token; 403 for a valid one without the scope. Tokens are looked up
 * on every request (no cache), so a revocation holds at once in every instance.
 */
@Injectable()
export class TokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly usage: TokenUsage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [context.getHandler(), context.getClass()]) ?? {
      kind: 'any',
    };
    if (access.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal?: Principal }>();
    if (access.kind === 'optional' && !request.headers.authorization) return true;
    let principal: Principal;
    try {
      principal = await this.authenticate(request.headers.authorization);
    } catch (error) {
      if (error instanceof DomainError) this.usage.failed(error.message, request.ip);
      throw error;
    }
    this.usage.used(principal.tokenId);
    if (access.kind === 'scope' && !principal.scopes.includes(access.scope)) {
      throw new DomainError('forbidden', `This token lacks the "${access.scope}" scope`);
    }
    request.principal = principal;
    return true;
  }

  private async authenticate(header: string | undefined): Promise<Principal> {
    if (!header) throw new DomainError('unauthenticated', 'Missing Authorization header: send "Authorization: Bearer svc_..."');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    // The checksum refuses a mistyped token without a database lookup.
    if (!match || !isWellFormedApiToken(match[1])) throw new DomainError('unauthenticated', 'Malformed API token');
    const [row] = await this.dataSource.query(
      `SELECT id, user_id, scopes, expires_at, revoked_at FROM api_tokens WHERE token_hash = $1`,
      [hashApiToken(match[1])],
    );
    if (!row) throw new DomainError('unauthenticated', 'Unknown API token');
    if (row.revoked_at) throw new DomainError('unauthenticated', 'This API token has been revoked');
    if (row.expires_at && new Date(row.expires_at).getTime() <= this.clock.now().getTime()) {
      throw new DomainError('unauthenticated', 'This API token has expired');
    }
    return { userId: row.user_id, tokenId: row.id, scopes: row.scopes };
  }
}
