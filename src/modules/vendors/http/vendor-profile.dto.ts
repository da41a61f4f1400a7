import { IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';
import { VENDOR_SLUG } from '../domain/vendor-profile';

export class SaveVendorProfileDto {
  /** 2-32 lowercase letters, digits or hyphens; not starting or ending with a hyphen. Unique across vendors. */
  @IsString()
  @Matches(VENDOR_SLUG, {
    message: 'slug must be 2-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
  })
  slug: string;

  @IsString()
  @Length(1, 64)
  displayName: string;

  /** Omitted: unchanged; null: cleared. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  bio?: string | null;

  /** The vendor's http(s) website; its host is what domain verification proves. Omitted: unchanged; null: cleared. */
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: true },
    { message: 'website must be a valid http(s) URL' },
  )
  @MaxLength(2048)
  website?: string | null;
}

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
