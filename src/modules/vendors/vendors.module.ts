import { Module } from '@nestjs/common';
import { OrgsModule } from '../orgs/orgs.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { HttpGithubOAuth } from './adapters/http-github-oauth';
import { ResolverDnsTxtLookup } from './adapters/resolver-dns-txt-lookup';
import { UnconfiguredGithubOAuth } from './adapters/unconfigured-github-oauth';
import { CheckDomainHandler } from './commands/check-domain/check-domain.handler';
import { CompleteGithubVerificationHandler } from './commands/complete-github-verification/complete-github-verification.handler';
import { RecheckVerificationHandler } from './commands/recheck-verification/recheck-verification.handler';
import { RegisterSigningKeyHandler } from './commands/register-signing-key/register-signing-key.handler';
import { RequestDomainRecordHandler } from './commands/request-domain-record/request-domain-record.handler';
import { RevokeSigningKeyHandler } from './commands/revoke-signing-key/revoke-signing-key.handler';
import { SaveVendorProfileHandler } from './commands/save-vendor-profile/save-vendor-profile.handler';
import { StartGithubVerificationHandler } from './commands/start-github-verification/start-github-verification.handler';
import { DnsTxtLookup, GithubOAuth } from './domain/ports';
import { PublicSigningKeyController } from './http/public-signing-key.controller';
import { SigningKeysController } from './http/signing-keys.controller';
import { VendorProfileController } from './http/vendor-profile.controller';
import { VerificationController } from './http/verification.controller';
import { FindVendorProfileHandler } from './queries/find-vendor-profile/find-vendor-profile.handler';
import { GetPublicSigningKeyHandler } from './queries/get-public-signing-key/get-public-signing-key.handler';
import { GetVendorProfileHandler } from './queries/get-vendor-profile/get-vendor-profile.handler';
import { ListSigningKeysHandler } from './queries/list-signing-keys/list-signing-keys.handler';
import { VerifyArchiveSignatureHandler } from './queries/verify-archive-signature/verify-archive-signature.handler';
import { SigningKeysProjection } from './read-models/signing-keys.projection';
import { VendorsProjection } from './read-models/vendors.projection';
import { VendorsReader } from './read-models/vendors.reader';
import { VerificationRecheckWorker } from './workers/verification-recheck.worker';
import './events'; // declares the module's event types before anything appends them

/** GitHub over HTTP when the OAuth app's credentials are set; otherwise every GitHub step is a clear 503. */
export function githubOAuthFor(config: AppConfig): GithubOAuth {
  const { clientId, clientSecret, oauthUrl, apiUrl } = config.github;
  if (!clientId || !clientSecret) return new UnconfiguredGithubOAuth();
  // VerificationController's callback route.
  const redirectUri = `${config.baseUrl}/v1/vendor/verify/github/callback`;
  return new HttpGithubOAuth({ clientId, clientSecret, oauthUrl, apiUrl, redirectUri });
}

/** DNS_SERVERS when set, otherwise the system resolver. */
export function dnsTxtLookupFor(config: AppConfig): DnsTxtLookup {
  return new ResolverDnsTxtLookup(config.dnsServers);
}

const controllers = [VendorProfileController, SigningKeysController, PublicSigningKeyController, VerificationController];
const commandHandlers = [
  SaveVendorProfileHandler,
  RegisterSigningKeyHandler,
  RevokeSigningKeyHandler,
  RequestDomainRecordHandler,
  CheckDomainHandler,
  StartGithubVerificationHandler,
  CompleteGithubVerificationHandler,
  RecheckVerificationHandler,
];
const queryHandlers = [
  GetVendorProfileHandler,
  FindVendorProfileHandler,
  ListSigningKeysHandler,
  VerifyArchiveSignatureHandler,
  GetPublicSigningKeyHandler,
];
const projections = [VendorsProjection, SigningKeysProjection];
const readers = [VendorsReader];
const adapters = [
  { provide: GithubOAuth, inject: [APP_CONFIG], useFactory: githubOAuthFor },
  { provide: DnsTxtLookup, inject: [APP_CONFIG], useFactory: dnsTxtLookupFor },
];
const workers = [VerificationRecheckWorker];

/** Vendors: profiles, verification by DNS and GitHub, release-signing keys. */
@Module({
  imports: [OrgsModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...readers, ...adapters, ...workers],
})
export class VendorsModule {}
