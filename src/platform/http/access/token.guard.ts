import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../errors/domain-error';
import { Access, ACCESS, OWNER_ONLY } from './access.decorators';
import { OwnerOnlyAction, refusePolicyBoundToken } from './policy-bound-tokens';
import { Authenticator, Principal } from './principal';

/**
 * Every route needs a token unless marked @Public: a route that forgot its
 * decorator fails closed. 401 for a missing, malformed, unknown, expired or
 * revoked token; 403 for a valid one without the scope, and for a token bound
 * to a spend policy on an @OwnerOnly route. Tokens are looked up
 * on every request (no cache), so a revocation holds at once in every instance.
 */
@Injectable()
export class TokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [context.getHandler(), context.getClass()]) ?? {
      kind: 'any',
    };
    if (access.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal?: Principal }>();
    if (access.kind === 'optional' && !request.headers.authorization) return true;
    const principal = await this.authenticator.authenticate(request.headers.authorization, request.ip);
    if (access.kind === 'scope' && !principal.scopes.includes(access.scope)) {
      throw new DomainError('forbidden', `This token lacks the "${access.scope}" scope`);
    }
    const ownerOnly = this.reflector.getAllAndOverride<OwnerOnlyAction | undefined>(OWNER_ONLY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (ownerOnly) refusePolicyBoundToken(principal, ownerOnly);
    request.principal = principal;
    return true;
  }
}
