import { ApiProperty } from '@nestjs/swagger';
import { POLICY_PACKAGE_TYPES } from '../domain/spend-policy';

/** The spec's Spend policy resource. */
export class SpendPolicy {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Integer cents; null: no maximum' })
  maxPerPurchaseCents: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Integer cents per UTC day; null: no limit' })
  dailyLimitCents: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Integer cents per UTC month; null: no limit' })
  monthlyLimitCents: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Integer cents; purchases above it need approval' })
  requireApprovalAboveCents: number | null;
  @ApiProperty({ type: [String], description: 'Vendor slugs; empty allows every vendor' }) vendorAllowlist: string[];
  @ApiProperty({ enum: POLICY_PACKAGE_TYPES, isArray: true }) blockedTypes: string[];
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SpendPolicyList {
  @ApiProperty({ type: [SpendPolicy], description: 'Newest first' }) policies: SpendPolicy[];
}
