import { LogPosition, RecordedEvent } from '../../../src/event-store/event-store';
import { replayWallet } from '../../../src/ledger/wallet-statement';

let revision = -1;
const event = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  eventId: `00000000-0000-4000-8000-${String(++revision + 1).padStart(12, '0')}`,
  type,
  streamId: 'wallet-user-u1',
  revision,
  position: LogPosition.START,
  data,
  metadata: { schemaVersion: 1, occurredAt: `2026-11-24T10:00:0${revision}.000Z` },
});

describe('wallet replay', () => {
  beforeEach(() => (revision = -1));

  it('runs the balance through top-ups, purchases, refunds and usage, skipping settings', () => {
    const { transactions, brokenBalances } = replayWallet([
      event('WalletToppedUp', { source: 'top_up', amountCents: 5000, balanceAfterCents: 5000 }),
      event('AutoTopUpConfigured', { enabled: true, thresholdCents: 500, amountCents: 2000 }),
      event('WalletDebited', { reason: 'purchase', description: 'Kit', amountCents: -1200, balanceAfterCents: 3800 }),
      event('WalletCredited', { reason: 'refund', description: 'Refund of Kit', amountCents: 1200, balanceAfterCents: 5000 }),
      event('WalletDebited', { reason: 'metered_usage', description: 'Calls', amountCents: -300, balanceAfterCents: 4700 }),
      event('WalletToppedUp', { source: 'auto_top_up', amountCents: 2000, balanceAfterCents: 6700 }),
    ]);
    expect(brokenBalances).toEqual([]);
    expect(transactions.map((t) => [t.revision, t.type, t.replayedBalanceCents])).toEqual([
      [0, 'top_up', 5000],
      [2, 'purchase', 3800],
      [3, 'refund', 5000],
      [4, 'metered_usage', 4700],
      [5, 'auto_top_up', 6700],
    ]);
  });

  it('names the event whose balanceAfterCents does not follow from the one before', () => {
    const { brokenBalances } = replayWallet([
      event('WalletToppedUp', { source: 'top_up', amountCents: 5000, balanceAfterCents: 5000 }),
      event('WalletDebited', { reason: 'purchase', description: 'Kit', amountCents: -1200, balanceAfterCents: 4800 }),
    ]);
    expect(brokenBalances).toEqual([{ revision: 1, eventId: expect.any(String), recordedCents: 4800, replayedCents: 3800 }]);
  });
});
