import { IsString, Matches } from 'class-validator';
import { CodePoints, SingleLine } from '../../../../platform/http/validation';
import { ORG_NAME_MAX, ORG_SLUG } from '../../domain/org-profile';

/** `POST /v1/orgs`. */
export class CreateOrgDto {
  /** 2-32 lowercase letters, digits or hyphens (the vendor slug rules and reserved words); unique among orgs. */
  @IsString()
  @Matches(ORG_SLUG, { message: 'slug must be 2-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen' })
  slug: string;

  /** 1-64 characters. */
  @IsString()
  @CodePoints(1, ORG_NAME_MAX)
  @Matches(/\S/, { message: 'name must not be only spaces' })
  @SingleLine()
  name: string;
}
