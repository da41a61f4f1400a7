import { ApiProperty } from '@nestjs/swagger';

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

export class PublicSigningKey {
  @ApiProperty() vendorSlug: string;
  /** null when the vendor has no active key (never registered, or revoked). */
  @ApiProperty({ type: SigningKey, nullable: true }) activeKey: SigningKey | null;
}
