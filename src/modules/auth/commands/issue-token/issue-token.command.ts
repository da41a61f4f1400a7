import { Scope } from '../../domain/api-token';

export class IssueTokenCommand {
  constructor(
    readonly userId: string,
    readonly name: string,
    readonly scopes: Scope[],
    readonly via: 'device' | 'api' | 'admin' | 'web',
    readonly options: { expiresInDays?: number | null; policyId?: string | null; notAfter?: Date | null } = {},
  ) {}
}

/** The plaintext is returned once, here, and stored nowhere. */
export interface IssuedToken {
  tokenId: string;
  token: string;
  name: string;
  scopes: Scope[];
  policyId: string | null;
  createdAt: string;
  expiresAt: string | null;
}
