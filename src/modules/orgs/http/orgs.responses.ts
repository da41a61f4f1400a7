import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INVITABLE_ROLES, ORG_ROLES } from '../domain/org.decider';

export class CreatedOrg {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
}

export class CreatedOrgAnswer {
  @ApiProperty({ type: CreatedOrg }) org: CreatedOrg;
}

export class OrgListItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ORG_ROLES, description: "The caller's role" }) role: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ type: String, nullable: true }) avatarUrl: string | null;
}

export class OrgList {
  @ApiProperty({ type: [OrgListItem] }) orgs: OrgListItem[];
}

export class OrgDetail {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ORG_ROLES, description: "The caller's role" }) myRole: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ type: String, nullable: true }) avatarUrl: string | null;
}

export class OrgMember {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ enum: ORG_ROLES }) role: string;
  @ApiProperty({ type: String, nullable: true, description: 'Null once the account is deleted or when it never had one' })
  name: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
}

export class OrgWithMembers {
  @ApiProperty({ type: OrgDetail }) org: OrgDetail;
  @ApiProperty({ type: [OrgMember] }) members: OrgMember[];
}

export class Invitation {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: INVITABLE_ROLES }) role: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class InvitationAnswer {
  @ApiProperty({ type: Invitation }) invitation: Invitation;
}

export class Accepted {
  @ApiProperty({ example: true }) accepted: true;
}

export class Deleted {
  @ApiProperty({ example: true }) deleted: true;
}

export class Removed {
  @ApiProperty({ example: true }) removed: true;
}

export class MemberAnswer {
  @ApiProperty({ type: OrgMember }) member: OrgMember;
}
