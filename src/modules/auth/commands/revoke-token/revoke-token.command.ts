export class RevokeTokenCommand {
  constructor(
    readonly tokenId: string,
    /** The caller: only a token's owner may revoke it. */
    readonly byUserId: string,
    readonly reason: 'revoked' | 'user_deleted' = 'revoked',
    /** Set by a saga to an id derived from its cause, so a redelivered revocation appends nothing. */
    readonly eventId?: string,
  ) {}
}
