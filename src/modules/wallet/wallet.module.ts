import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { ConfigureAutoTopUpHandler } from './commands/configure-auto-top-up/configure-auto-top-up.handler';
import { DebitWalletHandler } from './commands/debit-wallet/debit-wallet.handler';
import { FailTopUpHandler } from './commands/fail-top-up/fail-top-up.handler';
import { OpenAutoTopUpHandler } from './commands/open-auto-top-up/open-auto-top-up.handler';
import { RecordTopUpChargeHandler } from './commands/record-top-up-charge/record-top-up-charge.handler';
import { RequestTopUpHandler } from './commands/request-top-up/request-top-up.handler';
import { SettleTopUpHandler } from './commands/settle-top-up/settle-top-up.handler';
import { WalletLedger } from './commands/wallet-ledger';
import { WalletController } from './http/wallet.controller';
import { WalletEndpoints } from './http/wallet-endpoints';
import { GetWalletHandler } from './queries/get-wallet/get-wallet.handler';
import { ListWalletTransactionsHandler } from './queries/list-wallet-transactions/list-wallet-transactions.handler';
import { WalletsProjection } from './read-models/wallets.projection';
import './events'; // declares the module's event types before anything appends them

const controllers = [WalletController];
const commandHandlers = [
  RequestTopUpHandler,
  SettleTopUpHandler,
  FailTopUpHandler,
  DebitWalletHandler,
  ConfigureAutoTopUpHandler,
  OpenAutoTopUpHandler,
  RecordTopUpChargeHandler,
];
const queryHandlers = [GetWalletHandler, ListWalletTransactionsHandler];
const projections = [WalletsProjection];
const services = [WalletLedger, WalletEndpoints];

/** Wallets: prepaid balances as ledgers in the log, top-ups, auto top-up, the statement. */
@Module({
  imports: [BillingModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...services],
  // Purchases and metered calls debit wallets in their own atomic appends.
  exports: [WalletLedger, WalletEndpoints],
})
export class WalletModule {}
