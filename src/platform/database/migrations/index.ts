import { EventStore1763770000000 } from './1763770000000-event-store';
import { StreamHeads1763790000000 } from './1763790000000-stream-heads';
import { ApiTokens1763800000000 } from './1763800000000-api-tokens';
import { DeviceCodes1763810000000 } from './1763810000000-device-codes';
import { Users1763820000000 } from './1763820000000-users';
import { AuthAudit1763830000000 } from './1763830000000-auth-audit';
import { Vendors1763840000000 } from './1763840000000-vendors';
import { Catalog1763850000000 } from './1763850000000-catalog';
import { Discovery1763860000000 } from './1763860000000-discovery';
import { DeadLetterAddress1763870000000 } from './1763870000000-dead-letter-address';
import { StreamSnapshots1763880000000 } from './1763880000000-stream-snapshots';
import { PaymentsSandbox1763890000000 } from './1763890000000-payments-sandbox';
import { Wallets1763900000000 } from './1763900000000-wallets';
import { Idempotency1763910000000 } from './1763910000000-idempotency';
import { Billing1763920000000 } from './1763920000000-billing';
import { Purchasing1763930000000 } from './1763930000000-purchasing';
import { SpendPolicies1763940000000 } from './1763940000000-spend-policies';
import { TokenPolicies1763950000000 } from './1763950000000-token-policies';
import { Approvals1763960000000 } from './1763960000000-approvals';
import { ConnectedAccountsSandbox1763970000000 } from './1763970000000-connected-accounts-sandbox';
import { ConnectedAccounts1763980000000 } from './1763980000000-connected-accounts';

/** Every migration, in order. The server runs the pending ones at start. */
export const MIGRATIONS = [
  EventStore1763770000000,
  StreamHeads1763790000000,
  ApiTokens1763800000000,
  DeviceCodes1763810000000,
  Users1763820000000,
  AuthAudit1763830000000,
  Vendors1763840000000,
  Catalog1763850000000,
  Discovery1763860000000,
  DeadLetterAddress1763870000000,
  StreamSnapshots1763880000000,
  PaymentsSandbox1763890000000,
  Wallets1763900000000,
  Idempotency1763910000000,
  Billing1763920000000,
  Purchasing1763930000000,
  SpendPolicies1763940000000,
  TokenPolicies1763950000000,
  Approvals1763960000000,
  ConnectedAccountsSandbox1763970000000,
  ConnectedAccounts1763980000000,
];
