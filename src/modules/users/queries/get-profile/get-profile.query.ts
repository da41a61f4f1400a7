import { ApiProperty } from '@nestjs/swagger';

/** The caller's own account, as `GET /v1/users/me` shows it. */
export class GetProfileQuery {
  constructor(readonly userId: string) {}
}

export class UserProfile {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) avatarUrl: string | null;
  @ApiProperty() emailVerified: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
