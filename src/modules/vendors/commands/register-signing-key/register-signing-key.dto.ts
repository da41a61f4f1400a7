import { IsString, Matches, MaxLength } from 'class-validator';

export class RegisterSigningKeyDto {
  /** PEM "PUBLIC KEY" (SubjectPublicKeyInfo) of an Ed25519 or ECDSA P-256 key. */
  @IsString()
  @MaxLength(4096)
  publicKey: string;

  /** Lowercase hex SHA-256 of the key's DER-encoded SubjectPublicKeyInfo. */
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'fingerprint must be 64 hex characters (SHA-256 of the DER SubjectPublicKeyInfo)' })
  fingerprint: string;
}
