import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../platform/errors/domain-error';
import { IssuedToken, IssueTokenCommand } from '../issue-token/issue-token.command';
import { CreatedToken, CreateTokenCommand } from './create-token.command';

@CommandHandler(CreateTokenCommand)
export class CreateTokenHandler implements ICommandHandler<CreateTokenCommand, CreatedToken> {
  constructor(private readonly commands: CommandBus) {}

  async execute({ caller, request }: CreateTokenCommand): Promise<CreatedToken> {
    const beyond = request.scopes.filter((scope) => !caller.scopes.includes(scope));
    if (beyond.length > 0) throw new DomainError('forbidden', `This token cannot grant scopes it lacks: ${beyond.join(', ')}`);
    if (request.policyId) throw new DomainError('unprocessable', 'Unknown spend policy');
    const issued: IssuedToken = await this.commands.execute(
      new IssueTokenCommand(caller.userId, request.name, request.scopes, 'api', {
        expiresInDays: request.expiresInDays ?? null,
        notAfter: caller.expiresAt,
      }),
    );
    return {
      id: issued.tokenId,
      name: issued.name,
      scopes: issued.scopes,
      policyId: issued.policyId,
      policyName: null,
      lastUsedAt: null,
      expiresAt: issued.expiresAt,
      revokedAt: null,
      createdAt: issued.createdAt,
      token: issued.token,
    };
  }
}
