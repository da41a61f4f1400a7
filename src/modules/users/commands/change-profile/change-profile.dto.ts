import { IsString, IsUrl, MaxLength } from 'class-validator';
import { Clearable, CodePoints, SingleLine } from '../../../../platform/http/validation';

/** `PATCH /v1/users/me`: an omitted field is kept; null clears it (both fields are clearable). */
export class ChangeProfileDto {
  @Clearable()
  @IsString()
  @CodePoints(1, 100)
  @SingleLine()
  name?: string | null;

  /** An https URL of the avatar image. */
  @Clearable()
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_tld: true, disallow_auth: true },
    { message: 'avatarUrl must be an https URL without user:password@' },
  )
  @MaxLength(2048)
  avatarUrl?: string | null;
}
