import { IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { Clearable, CodePoints, MultiLine, Optional, SingleLine } from '../../../../platform/http/validation';
import { VENDOR_SLUG } from '../../domain/vendor-profile';

export class SaveVendorProfileDto {
  /** 2-32 lowercase letters, digits or hyphens; not starting or ending with a hyphen. Unique across vendors. */
  @IsString()
  @Matches(VENDOR_SLUG, {
    message: 'slug must be 2-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
  })
  slug: string;

  @IsString()
  @CodePoints(1, 64)
  @SingleLine()
  displayName: string;

  /** Omitted: unchanged; null: cleared. */
  @Clearable()
  @IsString()
  @CodePoints(0, 500)
  @MultiLine()
  bio?: string | null;

  /** The vendor's http(s) website; its host is what domain verification proves. Omitted: unchanged; null: cleared. */
  @Clearable()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: true, disallow_auth: true },
    { message: 'website must be a valid http(s) URL without user:password@' },
  )
  @MaxLength(2048)
  website?: string | null;

  /** Links this profile to an org the caller administers (admin or owner): its members then see its private packages. */
  @Optional()
  @IsString()
  @MaxLength(64)
  orgSlug?: string;
}
