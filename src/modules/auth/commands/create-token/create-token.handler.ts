import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { foldStream } from '../../../../event-store/fold-stream';
import { SnapshotStore } from '../../../../event-store/snapshot-store';
import { DomainError } from '../../../../platform/errors/domain-error';
import { mintableBy } from '../../../../platform/http/access';
import { isLivePolicyOf, policyStreamId, spendPolicyDecider, userPolicyOwner } from '../../../policies/domain';
import { IssuedToken, IssueTokenCommand } from '../issue-token/issue-token.command';
import { CreatedToken, CreateTokenCommand } from './create-token.command';

@CommandHandler(CreateTokenCommand)
export class CreateTokenHandler implements ICommandHandler<CreateTokenCommand, CreatedToken> {
  constructor(
    private readonly commands: CommandBus,
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
  ) {}

  async execute({ caller, request }: CreateTokenCommand): Promise<CreatedToken> {
    const beyond = request.scopes.filter((scope) => !caller.scopes.includes(scope));
    if (beyond.length > 0) throw new DomainError('forbidden', `This token cannot grant scopes it lacks: ${beyond.join(', ')}`);
    // A bound caller's token stays on its leash: bound to the caller's own policy, never to another or none.
    const policyId = mintableBy(caller, request.policyId);
    const policyName = policyId ? await this.ownPolicyName(caller.userId, policyId) : null;
    const issued: IssuedToken = await this.commands.execute(
      new IssueTokenCommand(caller.userId, request.name, request.scopes, 'api', {
        expiresInDays: request.expiresInDays ?? null,
        policyId,
        notAfter: caller.expiresAt,
      }),
    );
    return {
      id: issued.tokenId,
      name: issued.name,
      scopes: issued.scopes,
      policyId: issued.policyId,
      policyName,
      lastUsedAt: null,
      expiresAt: issued.expiresAt,
      revokedAt: null,
      createdAt: issued.createdAt,
      token: issued.token,
    };
  }

  /**
   * A token may be bound to one of the caller's own policies, active or not,
   * but not to a deleted one: decided from the policy's stream, never from a
   * read model. A policy deleted just after this check leaves the token bound
   * to a policy that no longer exists, which fails closed at every purchase.
   */
  private async ownPolicyName(userId: string, policyId: string): Promise<string> {
    const { state } = await foldStream(
      this.store,
      policyStreamId(policyId),
      spendPolicyDecider.evolve,
      spendPolicyDecider.initialState,
      { snapshots: this.snapshots, policy: spendPolicyDecider.snapshot },
    );
    if (!isLivePolicyOf(state, userPolicyOwner(userId))) throw new DomainError('unprocessable', 'Unknown spend policy');
    return state.name;
  }
}
