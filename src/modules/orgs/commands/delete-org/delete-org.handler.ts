import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { WalletLedger } from '../../../wallet/commands/wallet-ledger';
import { orgWallet } from '../../domain/org-owner';
import { OrgDecisions } from '../org-decisions';
import { DeleteOrgCommand } from './delete-org.command';

@CommandHandler(DeleteOrgCommand)
export class DeleteOrgHandler implements ICommandHandler<DeleteOrgCommand, void> {
  constructor(
    private readonly orgs: OrgDecisions,
    private readonly wallets: WalletLedger,
    private readonly clock: Clock,
  ) {}

  async execute({ orgId, actorId }: DeleteOrgCommand): Promise<void> {
    // The balance is decided from the wallet's stream, inside the wallet's writer queue of this process.
    await this.wallets.exclusively(orgWallet(orgId), async () => {
      const wallet = await this.wallets.fold(orgWallet(orgId));
      await this.orgs.decide(orgId, {
        type: 'DeleteOrg',
        actorId,
        walletBalanceCents: wallet.state.balanceCents,
        now: this.clock.now(),
      });
    });
  }
}
