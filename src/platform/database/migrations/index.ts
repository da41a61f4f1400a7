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
import { Orgs1764000000000 } from './1764000000000-orgs';
import { ListingVisibility1764005000000 } from './1764005000000-listing-visibility';
import { Network1764010000000 } from './1764010000000-network';
import { MoneyStreamChain1764020000000 } from './1764020000000-money-stream-chain';
import { Journal1764020100000 } from './1764020100000-journal';
import { SearchHead1764030000000 } from './1764030000000-search-head';
import { SearchLexemes1764030100000 } from './1764030100000-search-lexemes';
import { WebSessions1764040000000 } from './1764040000000-web-sessions';
import { ApprovalTokenNames1764050000000 } from './1764050000000-approval-token-names';
import { ReleaseSignatures1764060000000 } from './1764060000000-release-signatures';
import { ListingColumnsInline1764070000000 } from './1764070000000-listing-columns-inline';
import { ServiceSearchIndexes1764080000000 } from './1764080000000-service-search-indexes';
import { CatalogServiceCalls1764091000000 } from './1764091000000-catalog-service-calls';
import { SandboxTestCards1764093000000 } from './1764093000000-sandbox-test-cards';

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
  Orgs1764000000000,
  ListingVisibility1764005000000,
  Network1764010000000,
  MoneyStreamChain1764020000000,
  Journal1764020100000,
  SearchHead1764030000000,
  SearchLexemes1764030100000,
  WebSessions1764040000000,
  ApprovalTokenNames1764050000000,
  ReleaseSignatures1764060000000,
  ListingColumnsInline1764070000000,
  ServiceSearchIndexes1764080000000,
  CatalogServiceCalls1764091000000,
  SandboxTestCards1764093000000,
];
