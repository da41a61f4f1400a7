/**
 * Whose wallet: a user's now, an organization's later. The owner is in the
 * stream id, not in the events, so org wallets need no migration of events.
 */
export type WalletOwner = {
  kind: 'user' | 'org';
  id: string;
};

export const userWallet = (userId: string): WalletOwner => ({ kind: 'user', id: userId });

export const walletStreamId = (owner: WalletOwner): string => `wallet-${owner.kind}-${owner.id}`;

const WALLET_STREAM = /^wallet-(user|org)-(.+)$/;

export function walletOwnerOf(streamId: string): WalletOwner | null {
  const match = WALLET_STREAM.exec(streamId);
  return match ? { kind: match[1] as WalletOwner['kind'], id: match[2] } : null;
}

/** Bounds of a top-up, manual or automatic, in cents. */
export const TOP_UP_MIN_CENTS = 500;
export const TOP_UP_MAX_CENTS = 50_000;
