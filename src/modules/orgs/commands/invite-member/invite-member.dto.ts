import { IsEmail, IsIn, IsString, MaxLength } from 'class-validator';
import { INVITABLE_ROLES, InvitableRole } from '../../domain/org.decider';

/** `POST /v1/orgs/:slug/members`. */
export class InviteMemberDto {
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid address' })
  email: string;

  @IsIn(INVITABLE_ROLES)
  role: InvitableRole;
}
