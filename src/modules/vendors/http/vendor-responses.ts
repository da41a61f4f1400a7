import { ApiProperty } from '@nestjs/swagger';

export class VendorVerification {
  @ApiProperty() domainVerified: boolean;
  @ApiProperty() githubVerified: boolean;
  @ApiProperty({ type: String, nullable: true }) githubOrg: string | null;
  /** Either proof holds. */
  @ApiProperty() verified: boolean;
}

export class VendorProfile extends VendorVerification {
  @ApiProperty() slug: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ type: String, nullable: true }) website: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class SigningKey {
  @ApiProperty() publicKey: string;
  @ApiProperty() fingerprint: string;
}

export class SigningKeyLogEntry {
  @ApiProperty({ enum: ['register', 'rotate', 'revoke'] }) action: string;
  @ApiProperty() fingerprint: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SigningKeys {
  @ApiProperty({ type: SigningKey, nullable: true }) activeKey: SigningKey | null;
  /** Every action, newest first. */
  @ApiProperty({ type: [SigningKeyLogEntry] }) log: SigningKeyLogEntry[];
}

export class SigningKeyRegistered {
  @ApiProperty({ enum: ['register', 'rotate'] }) action: 'register' | 'rotate';
  @ApiProperty() fingerprint: string;
}

export class DomainRecord {
  /** The TXT record value to publish on the website's host. */
  @ApiProperty({ example: 'svc-verify=3f2a...' }) record: string;
}

export class DomainCheck {
  @ApiProperty() verified: boolean;
}

export class AuthorizationUrl {
  @ApiProperty() url: string;
}

export class GithubVerified {
  @ApiProperty() verified: boolean;
  @ApiProperty() githubOrg: string;
}

export class Ok {
  @ApiProperty({ example: true }) ok: true;
}
