import { WalletOwner } from '../../wallet/domain/wallet-owner';

/** An org's wallet: the wallet machinery with an org owner (stream `wallet-org-<orgId>`). */
export const orgWallet = (orgId: string): WalletOwner => ({ kind: 'org', id: orgId });
