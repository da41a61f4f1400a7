import { Module } from '@nestjs/common';
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
import { DnsTxtLookup } from './verification/dns-txt-lookup';
import { GithubOAuthClient } from './verification/github-oauth.client';
import { VerificationRecheck } from './verification/verification-recheck';
import './events'; // declares the module's event types before anything appends them

const commands = [VendorProfileService, SigningKeysService, VerificationService];
const queries = [VendorDirectory, VerifyArchiveSignatureHandler];
const projections = [VendorsProjection, SigningKeysProjection];
const verification = [DnsTxtLookup, GithubOAuthClient, VerificationRecheck];

/** Vendors: profiles, verification by DNS and GitHub, release-signing keys. */
@Module({
  controllers: [VendorProfileController, SigningKeysController, VerificationController],
  providers: [...commands, ...queries, ...projections, ...verification],
  exports: [VendorDirectory],
})
export class VendorsModule {}
