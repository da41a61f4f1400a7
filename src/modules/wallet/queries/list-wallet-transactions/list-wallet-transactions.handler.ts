import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { CursorCodec, invalidCursor } from '../../../../platform/http/cursor-codec';
import { walletStreamId } from '../../domain/wallet-owner';
import { TransactionType } from '../../read-models/wallets.projection';
import { ListWalletTransactionsQuery, WalletTransactionPage } from './list-wallet-transactions.query';

const CURSOR_KIND = 'wallet-transactions';

/**
 * A keyset walk over the wallet's stream revisions: each page starts below
 * the last revision of the one before, so transactions appended meanwhile
 * never shift a page and each is seen exactly once.
 */
@QueryHandler(ListWalletTransactionsQuery)
export class ListWalletTransactionsHandler implements IQueryHandler<ListWalletTransactionsQuery, WalletTransactionPage> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, limit, cursor }: ListWalletTransactionsQuery): Promise<WalletTransactionPage> {
    // The cursor belongs to this wallet: another caller's cursor is refused, not followed.
    const wallet = walletStreamId(owner);
    const now = this.clock.now().getTime();
    let below: number | null = null;
    if (cursor !== undefined) {
      const [revision] = this.cursors.decode(cursor, CURSOR_KIND, wallet, now);
      if (!Number.isSafeInteger(revision)) throw invalidCursor();
      below = revision as number;
    }
    const rows: {
      id: string;
      revision: string;
      type: TransactionType;
      amount_cents: string;
      balance_after_cents: string;
      description: string;
      created_at: Date;
    }[] = await this.dataSource.query(
      `SELECT id, revision, type, amount_cents, balance_after_cents, description, created_at
         FROM wallet_transactions
        WHERE owner_kind = $1 AND owner_id = $2 AND ($3::bigint IS NULL OR revision < $3)
        ORDER BY revision DESC LIMIT $4`,
      [owner.kind, owner.id, below, limit + 1],
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      transactions: page.map((row) => ({
        id: row.id,
        type: row.type,
        amountCents: Number(row.amount_cents),
        balanceAfterCents: Number(row.balance_after_cents),
        description: row.description,
        createdAt: new Date(row.created_at).toISOString(),
      })),
      nextCursor: hasMore && last ? this.cursors.encode(CURSOR_KIND, wallet, [Number(last.revision)], now) : null,
      hasMore,
    };
  }
}
