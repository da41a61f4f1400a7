import { IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';
import { VENDOR_SLUG } from '../../domain/vendor-profile';

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
