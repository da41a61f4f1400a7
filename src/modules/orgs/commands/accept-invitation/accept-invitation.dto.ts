import { IsString, MaxLength, MinLength } from 'class-validator';

/** `POST /v1/orgs/accept-invite`: the token from the invitation link. */
export class AcceptInvitationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  token: string;
}
