import { Command } from 'commander';
import { Api } from '../api';
import { CliError } from '../errors';
import { cents, colors, emit, keyValues, note, OutputOptions, table } from '../output';
import type { TopUpAnswer, Wallet, WalletTransactions } from '../types';
import { integer } from './catalog';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The personal wallet, or an organization's (same shapes, spec: Organizations). */
const walletPath = (org?: string) => (org ? `/v1/orgs/${encodeURIComponent(org)}/wallet` : '/v1/wallet');

export function walletCommands(program: Command): void {
  const wallet = program
    .command('wallet')
    .description('wallet balance and recent transactions')
    .enablePositionalOptions()
    .option('--org <slug>', "an organization's wallet")
    .option('--limit <n>', 'how many recent transactions (1-100, default 10)', integer(1, 100), 10)
    .option('--json', 'machine output on stdout')
    .action(async (options: OutputOptions & { org?: string; limit: number }) => {
      const api = new Api();
      const base = walletPath(options.org);
      const [balance, history] = await Promise.all([
        api.get<Wallet>(base, { auth: true }),
        api.get<WalletTransactions>(`${base}/transactions`, { auth: true, query: { limit: options.limit } }),
      ]);
      emit(options, { wallet: balance, transactions: history.transactions, hasMore: history.hasMore }, () =>
        [
          keyValues([
            ['balance', colors.bold(cents(balance.balanceCents))],
            [
              'auto top-up',
              balance.autoTopUpEnabled
                ? `${cents(balance.autoTopUpAmountCents)} when below ${cents(balance.autoTopUpThresholdCents)}`
                : 'off',
            ],
          ]),
          '',
          history.transactions.length
            ? table(
                ['when', 'type', 'amount', 'balance after', 'description'],
                history.transactions.map((t) => [
                  t.createdAt,
                  t.type,
                  t.amountCents < 0 ? colors.red(cents(t.amountCents)) : colors.green(cents(t.amountCents)),
                  cents(t.balanceAfterCents),
                  t.description,
                ]),
              )
            : 'No transactions yet.',
        ].join('\n'),
      );
    });

  wallet
    .command('top-up')
    .description('start a top-up (500 to 50000 cents) and print where to pay')
    .argument('<cents>', 'amount in cents', integer(500, 50_000))
    .option('--org <slug>', "top up an organization's wallet")
    .option('--wait', 'wait until the payment is credited')
    .option('--wait-timeout <seconds>', 'how long --wait waits (default 900)', integer(1))
    .option('--json', 'machine output on stdout')
    .action(async (amountCents: number, options: OutputOptions & { org?: string; wait?: boolean; waitTimeout?: number }) => {
      const api = new Api();
      const base = walletPath(options.org);
      const before = options.wait ? (await api.get<Wallet>(base, { auth: true })).balanceCents : 0;
      const { clientSecret } = await api.post<TopUpAnswer>(`${base}/top-up`, { amountCents }, { auth: true, moneyMove: true });
      const paymentIntentId = clientSecret.split('_secret_')[0];
      const result: Record<string, unknown> = { amountCents, paymentIntentId, clientSecret, credited: false };
      note(
        `Pay ${cents(amountCents)} to complete the top-up: confirm payment intent ${paymentIntentId} with the payment processor ` +
          "(the web app's wallet page does this with a saved or new card). The balance is credited when the payment succeeds.",
      );
      if (options.wait) {
        const deadline = Date.now() + (options.waitTimeout ?? 900) * 1000;
        for (;;) {
          const now = await api.get<Wallet>(base, { auth: true });
          if (now.balanceCents >= before + amountCents) {
            Object.assign(result, { credited: true, balanceCents: now.balanceCents });
            break;
          }
          if (Date.now() > deadline) throw new CliError('Gave up waiting for the payment to be credited');
          await sleep(2000);
        }
      }
      emit(options, result, () =>
        result.credited
          ? `Credited ${cents(amountCents)}; balance ${cents(result.balanceCents as number)}`
          : `Top-up of ${cents(amountCents)} started: payment intent ${paymentIntentId}\nclient secret: ${clientSecret}`,
      );
    });
}
