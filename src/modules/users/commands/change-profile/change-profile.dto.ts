import { IsOptional, IsString, IsUrl, Length } from 'class-validator';

export class ChangeProfileDto {
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  /** An https URL of the avatar image. */
  @IsOptional()
  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: true })
  avatarUrl?: string;
}
