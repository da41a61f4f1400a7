import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { OwnerOnlyAction } from './policy-bound-tokens';
import { Principal, Scope } from './principal';

export const ACCESS = 'svc:access';
export type Access = { kind: 'public' } | { kind: 'optional' } | { kind: 'any' } | { kind: 'scope'; scope: Scope };

/** No token needed. */
export const Public = () => SetMetadata(ACCESS, { kind: 'public' } satisfies Access);
/** No token needed, but one that is sent must be valid; the route sees the caller when there is one. */
export const OptionalToken = () => SetMetadata(ACCESS, { kind: 'optional' } satisfies Access);
/** Any valid token (the spec's `any`). */
export const AnyToken = () => SetMetadata(ACCESS, { kind: 'any' } satisfies Access);
/** A valid token carrying this scope; others get 403. */
export const RequireScope = (scope: Scope) => SetMetadata(ACCESS, { kind: 'scope', scope } satisfies Access);

export const OWNER_ONLY = 'svc:owner-only';
/**
 * Refused (403) to a token bound to a spend policy, whatever its scopes: the
 * route would let an agent lift its own limits (see policy-bound-tokens.ts).
 */
export const OwnerOnly = (action: OwnerOnlyAction) => SetMetadata(OWNER_ONLY, action);

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<{ principal: Principal }>().principal,
);

/** The caller on an @OptionalToken route, or null when anonymous. */
export const OptionalPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal | null =>
    context.switchToHttp().getRequest<{ principal?: Principal }>().principal ?? null,
);
