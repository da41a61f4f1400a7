import { ApiProperty } from '@nestjs/swagger';

export class ListTokensQuery {
  constructor(readonly userId: string) {}
}

/** The spec's API token list item. */
export class TokenListItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['read', 'purchase', 'download', 'sell'], isArray: true }) scopes: string[];
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) policyId: string | null;
  @ApiProperty({ type: String, nullable: true }) policyName: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) lastUsedAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revokedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
