import { ApiProperty } from '@nestjs/swagger';

export class VendorVerification {
  @ApiProperty() domainVerified: boolean;
  @ApiProperty() githubVerified: boolean;
  @ApiProperty({ type: String, nullable: true }) githubOrg: string | null;
  /** Either proof holds. */
  @ApiProperty() verified: boolean;
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
