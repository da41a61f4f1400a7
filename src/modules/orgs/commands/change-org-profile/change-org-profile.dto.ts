import { IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { Clearable, CodePoints, Optional, SingleLine } from '../../../../platform/http/validation';
import { ORG_NAME_MAX } from '../../domain/org-profile';

/** `PATCH /v1/orgs/:slug`: any subset. */
export class ChangeOrgProfileDto {
  @Optional()
  @IsString()
  @CodePoints(1, ORG_NAME_MAX)
  @Matches(/\S/, { message: 'name must not be only spaces' })
  @SingleLine()
  name?: string;

  /** An http(s) image address; null removes it. */
  @Clearable()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: 'avatarUrl must be an http(s) URL' })
  avatarUrl?: string | null;
}
