import { IsIn } from 'class-validator';
import { ORG_ROLES, OrgRole } from '../../domain/org.decider';

/** `PATCH /v1/orgs/:slug/members/:userId`. */
export class ChangeMemberRoleDto {
  @IsIn(ORG_ROLES)
  role: OrgRole;
}
