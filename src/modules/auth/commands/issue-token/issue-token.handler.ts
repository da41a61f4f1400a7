import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { IssuedToken, IssueTokenCommand } from './issue-token.command';
import { decideTokenGrant } from './token-grant';

@CommandHandler(IssueTokenCommand)
export class IssueTokenHandler implements ICommandHandler<IssueTokenCommand, IssuedToken> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute(command: IssueTokenCommand): Promise<IssuedToken> {
    const tokenId = randomUUID();
    const { token, issued } = await retryOnConflict(async () => {
      const grant = await decideTokenGrant(
        this.store,
        { tokenId, userId: command.userId, name: command.name, scopes: command.scopes, via: command.via, ...command.options },
        this.clock.now(),
      );
      await this.store.appendAtomically(grant.appends);
      return grant;
    });
    return {
      tokenId,
      token,
      name: issued.name,
      scopes: issued.scopes,
      policyId: issued.policyId,
      createdAt: issued.issuedAt,
      expiresAt: issued.expiresAt,
    };
  }
}
