import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { HttpGithubOAuth } from './adapters/http-github-oauth';
import { ResolverDnsTxtLookup } from './adapters/resolver-dns-txt-lookup';
import { UnconfiguredGithubOAuth } from './adapters/unconfigured-github-oauth';
import { SigningKeysService } from './commands/signing-keys.service';
import { VendorProfileService } from './commands/vendor-profile.service';
import { VerificationService } from './commands/verification.service';
import { SigningKeysController } from './http/signing-keys.controller';
import { VendorProfileController } from './http/vendor-profile.controller';
import { VerificationController } from './http/verification.controller';
import { VerifyArchiveSignatureHandler } from './queries/verify-archive-signature.query';
import { VendorDirectory } from './queries/vendor-directory';
import { SigningKeysProjection } from './read-models/signing-keys.projection';
import { VendorsProjection } from './read-models/vendors.projection';
import { DnsTxtLookup, GithubOAuth } from './domain/ports';
import { VerificationRecheck } from './verification/verification-recheck';
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

const commands = [VendorProfileService, SigningKeysService, VerificationService];
const queries = [VendorDirectory, VerifyArchiveSignatureHandler];
const projections = [VendorsProjection, SigningKeysProjection];
const adapters = [
  { provide: GithubOAuth, inject: [APP_CONFIG], useFactory: githubOAuthFor },
  { provide: DnsTxtLookup, inject: [APP_CONFIG], useFactory: dnsTxtLookupFor },
];
const workers = [VerificationRecheck];

/** Vendors: profiles, verification by DNS and GitHub, release-signing keys. */
@Module({
  controllers: [VendorProfileController, SigningKeysController, VerificationController],
  providers: [...commands, ...queries, ...projections, ...adapters, ...workers],
  exports: [VendorDirectory],
})
export class VendorsModule {}
