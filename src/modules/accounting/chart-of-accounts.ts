import { RecordedEvent } from '../../event-store/event-store';
import { BillingEvents } from '../billing/events';
import { CatalogEvents } from '../catalog/events';
import { NetworkEvents } from '../network/events';
import { PolicyEvents } from '../policies/events';
import { PurchaseMade } from '../purchasing/domain/purchase';
import { PurchasingEvents } from '../purchasing/events';
import { WalletEvents } from '../wallet/events';

/**
 * The chart of accounts: every account the journal posts to, and one line per
 * event type whose payload has an amount in cents, saying how it posts, or why
 * it posts nothing: another event posts its money, or its amounts are limits
 * or settings that move none. The journal names any other event with cents as
 * a money event nobody booked. A line is signed cents: positive is a debit, a
 * credit negative, and every entry's lines sum to zero.
 *
 * Money moves in three ways: in from the processor (top-ups, card purchases),
 * between a wallet and a sale (wallet purchases, refunds, metered usage), and
 * from a sale to the vendor and the platform (payable and fee). Streams tell
 * which wallet; the order tells which vendor.
 */
export const Accounts = {
  /** Asset: money the processor collected for us and holds until payout. */
  processorClearing: 'processor-clearing',
  /** Liability: what we owe a wallet's owner (`wallet:user:<id>`, `wallet:org:<id>`). */
  wallet: (walletStreamId: string): string => walletAccount(walletStreamId),
  /** Clearing: wallet money taken for a purchase, until the order books the sale; nets to zero. */
  walletPurchasesClearing: 'wallet-purchases-clearing',
  /** Clearing: wallet money taken for metered calls, until usage settles with the service's vendor. */
  meteredUsageClearing: 'metered-usage-clearing',
  /** Liability: what we owe a vendor for its sales, net of the platform's fee. */
  vendorPayable: (vendorId: string): string => `vendor-payable:${vendorId}`,
  /** Revenue: the platform's fee on each sale. */
  platformFeeRevenue: 'platform-fee-revenue',
  /** Expense: money given back to wallets. */
  refunds: 'refunds',
  /** Liability (suspense): paid at the processor for no top-up of ours; kept for finance to resolve. */
  unmatchedPayments: 'unmatched-payments',
} as const;

const walletAccounts = new Map<string, string>();
/** Named once per wallet: a replay posts to the same few accounts millions of times. */
function walletAccount(walletStreamId: string): string {
  let account = walletAccounts.get(walletStreamId);
  if (account === undefined) {
    account = `wallet:${walletStreamId.replace(/^wallet-(user|org)-/, '$1:')}`;
    if (walletAccounts.size > 100_000) walletAccounts.clear();
    walletAccounts.set(walletStreamId, account);
  }
  return account;
}

export type Line = { account: string; amountCents: number };

/** What a rule may know besides the event: the orders seen so far (a card order's payment names only the order). */
export interface PostingContext {
  order(orderId: string): PurchaseMade['data'] | undefined;
}

/**
 * How an event type is booked: its lines; or nothing, because another event posts its
 * money (said which); or nothing, because its amounts in cents are limits or settings
 * that move no money (said which).
 */
export type PostingRule =
  | { posts: string; lines: (event: RecordedEvent, context: PostingContext) => Line[] }
  | { postsNothing: string }
  | { limitsOrSettings: string };

/** Declares an event whose amounts in cents are limits or settings (a policy's limits, a price), not money. */
const limitsOrSettings = (what: string): PostingRule => ({ limitsOrSettings: what });

const cents = (event: RecordedEvent, field = 'amountCents'): number => Number(event.data[field] ?? 0);

function saleLines(order: PurchaseMade['data'], from: string): Line[] {
  return [
    { account: from, amountCents: order.amountCents },
    { account: Accounts.vendorPayable(order.vendorId), amountCents: -order.vendorNetCents },
    { account: Accounts.platformFeeRevenue, amountCents: -order.platformFeeCents },
  ];
}

export const CHART_OF_ACCOUNTS: Readonly<Record<string, PostingRule>> = {
  // Wallet streams: the wallet's own ledger.
  [WalletEvents.WalletToppedUp]: {
    posts: 'processor-clearing Dr / wallet Cr',
    lines: (e) => [
      { account: Accounts.processorClearing, amountCents: cents(e) },
      { account: Accounts.wallet(e.streamId), amountCents: -cents(e) },
    ],
  },
  [WalletEvents.WalletDebited]: {
    posts: 'wallet Dr / purchases clearing (or metered usage clearing) Cr',
    lines: (e) => [
      { account: Accounts.wallet(e.streamId), amountCents: -cents(e) },
      {
        account: e.data.reason === 'metered_usage' ? Accounts.meteredUsageClearing : Accounts.walletPurchasesClearing,
        amountCents: cents(e),
      },
    ],
  },
  [WalletEvents.WalletCredited]: {
    posts: 'refunds Dr / wallet Cr',
    lines: (e) => [
      { account: Accounts.refunds, amountCents: cents(e) },
      { account: Accounts.wallet(e.streamId), amountCents: -cents(e) },
    ],
  },
  [WalletEvents.AutoTopUpRequested]: { postsNothing: 'a request to charge; the credit posts when the top-up settles' },
  [WalletEvents.UnmatchedPaymentRecorded]: {
    posts: 'processor-clearing Dr / unmatched payments Cr',
    lines: (e) => [
      { account: Accounts.processorClearing, amountCents: cents(e) },
      { account: Accounts.unmatchedPayments, amountCents: -cents(e) },
    ],
  },
  // Top-up streams: our record of the intent; the wallet's WalletToppedUp posts the money, once.
  [WalletEvents.TopUpRequested]: { postsNothing: 'the amount asked for; nothing is paid yet' },
  [WalletEvents.TopUpSucceeded]: { postsNothing: 'appended with WalletToppedUp, which posts it' },
  // Orders: a wallet order books the sale out of purchases clearing; a card order books it when paid.
  [PurchasingEvents.PurchaseMade]: {
    posts: 'wallet order: purchases clearing Dr / vendor payable Cr, platform fee Cr; card order: at OrderPaid',
    lines: (e) => {
      const order = e.data as PurchaseMade['data'];
      if (order.amountCents === 0 || order.fundingSource !== 'wallet' || order.status !== 'paid') return [];
      return saleLines(order, Accounts.walletPurchasesClearing);
    },
  },
  [PurchasingEvents.OrderPaid]: {
    posts: 'card order: processor-clearing Dr / vendor payable Cr, platform fee Cr',
    lines: (e, context) => {
      const order = context.order(String(e.data.orderId));
      if (!order || order.fundingSource !== 'card' || order.amountCents === 0) return [];
      return saleLines(order, Accounts.processorClearing);
    },
  },
  [PurchasingEvents.PurchaseApprovalRequested]: { postsNothing: 'the terms asked for; an approval buys through PurchaseMade' },
  // The processor's reports: evidence, compared by reconcile; the wallet or the order posts the money.
  [BillingEvents.PaymentEventReceived]: { postsNothing: 'the processor’s report; WalletToppedUp or OrderPaid posts it' },
  [PolicyEvents.PolicySpendRecorded]: { postsNothing: 'a spend counted against a policy’s limits; the wallet posts it' },
  [PolicyEvents.PolicySpendReleased]: { postsNothing: 'a failed card purchase’s spend given back to a policy’s limits' },
  // Metered calls: the reservation's WalletDebited moves the cost into metered usage clearing; a call
  // that fails gives it back with a refund credit, which this reverses, so clearing keeps only charged calls.
  [NetworkEvents.ServiceCallReserved]: { postsNothing: 'appended with the WalletDebited that posts the reservation' },
  [NetworkEvents.ServiceCalled]: {
    posts: 'released call: metered usage clearing Dr / refunds Cr (the refund credit was a release, not an expense)',
    lines: (e) => {
      const released = e.data.outcome === 'success' ? 0 : cents(e, 'costCents');
      if (released === 0) return [];
      return [
        { account: Accounts.meteredUsageClearing, amountCents: released },
        { account: Accounts.refunds, amountCents: -released },
      ];
    },
  },
  // Limits and settings: amounts in cents that move no money, so they post nothing and are never a finding.
  [CatalogEvents.ListingCreated]: limitsOrSettings('a list price'),
  [CatalogEvents.ReleaseUploaded]: limitsOrSettings('a list price'),
  [PolicyEvents.SpendPolicyCreated]: limitsOrSettings('a spend policy’s limits'),
  [PolicyEvents.SpendPolicyUpdated]: limitsOrSettings('a spend policy’s limits after a change'),
  [WalletEvents.AutoTopUpConfigured]: limitsOrSettings('an auto top-up’s threshold and amount'),
};

/** The rule for a type, or undefined when the chart has no line for it. */
export const postingRuleFor = (type: string): PostingRule | undefined =>
  Object.prototype.hasOwnProperty.call(CHART_OF_ACCOUNTS, type) ? CHART_OF_ACCOUNTS[type] : undefined;
