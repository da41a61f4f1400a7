import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ConfigureAutoTopUpCommand } from '../commands/configure-auto-top-up/configure-auto-top-up.command';
import { ConfigureAutoTopUpDto } from '../commands/configure-auto-top-up/configure-auto-top-up.dto';
import { RequestTopUpCommand } from '../commands/request-top-up/request-top-up.command';
import { TopUpDto } from '../commands/request-top-up/request-top-up.dto';
import { WalletOwner } from '../domain/wallet-owner';
import { GetWalletQuery } from '../queries/get-wallet/get-wallet.query';
import { WalletTransactionsQueryDto } from '../queries/list-wallet-transactions/list-wallet-transactions.dto';
import { ListWalletTransactionsQuery } from '../queries/list-wallet-transactions/list-wallet-transactions.query';
import { AutoTopUp, TopUpAnswer, Wallet, WalletTransactions } from './wallet.responses';

/**
 * What the wallet routes do, for any owner: the personal routes and the org
 * routes (`/v1/orgs/:slug/wallet/...`) answer alike because they share this.
 */
@Injectable()
export class WalletEndpoints {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  wallet(owner: WalletOwner): Promise<Wallet> {
    return this.queries.execute(new GetWalletQuery(owner));
  }

  topUp(owner: WalletOwner, body: TopUpDto): Promise<TopUpAnswer> {
    return this.commands.execute(new RequestTopUpCommand(owner, body.amountCents));
  }

  async autoTopUp(owner: WalletOwner, body: ConfigureAutoTopUpDto): Promise<AutoTopUp> {
    const settings = await this.commands.execute(
      new ConfigureAutoTopUpCommand(owner, {
        enabled: body.enabled,
        thresholdCents: body.thresholdCents,
        amountCents: body.amountCents,
      }),
    );
    return {
      autoTopUpEnabled: settings.enabled,
      autoTopUpThresholdCents: settings.thresholdCents,
      autoTopUpAmountCents: settings.amountCents,
    };
  }

  transactions(owner: WalletOwner, query: WalletTransactionsQueryDto): Promise<WalletTransactions> {
    return this.queries.execute(new ListWalletTransactionsQuery(owner, query.limit ?? 50, query.cursor));
  }
}
