import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { generateApiToken, hashApiToken } from '../../domain/api-token';
import { ApiTokenEvent, decideApiToken, initialApiTokenState } from '../../domain/api-token.decider';
import { IssuedToken, IssueTokenCommand } from './issue-token.command';

@CommandHandler(IssueTokenCommand)
export class IssueTokenHandler implements ICommandHandler<IssueTokenCommand, IssuedToken> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute(command: IssueTokenCommand): Promise<IssuedToken> {
    const tokenId = randomUUID();
    const token = generateApiToken();
    const events = decideApiToken(
      {
        type: 'IssueToken',
        tokenId,
        userId: command.userId,
        name: command.name,
        scopes: command.scopes,
        tokenHash: hashApiToken(token),
        policyId: command.options.policyId,
        expiresInDays: command.options.expiresInDays,
        via: command.via,
        now: this.clock.now(),
      },
      initialApiTokenState,
    );
    await this.store.append(`token-${tokenId}`, events, 'no_stream');
    const { data } = events[0] as Extract<ApiTokenEvent, { type: 'TokenIssued' }>;
    return {
      tokenId,
      token,
      name: data.name,
      scopes: data.scopes,
      policyId: data.policyId,
      createdAt: data.issuedAt,
      expiresAt: data.expiresAt,
    };
  }
}
