import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { Clearable, CodePoints, Optional, SingleLine } from '../../../../platform/http/validation';
import { PackageType } from '../../../catalog/archive/package-manifest';
import { VENDOR_SLUG } from '../../../vendors/domain/vendor-profile';
import { POLICY_LIMITS, POLICY_PACKAGE_TYPES } from '../../domain/spend-policy';

/** `PATCH /v1/policies/:id`: any subset of the fields; null clears a money rule and is a 400 on any other field. */
export class UpdatePolicyDto {
  @Optional()
  @IsString()
  @CodePoints(1, POLICY_LIMITS.name)
  @Matches(/\S/, { message: 'name must not be only spaces' })
  @SingleLine()
  name?: string;

  /** Null removes the limit. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  maxPerPurchaseCents?: number | null;

  /** Null removes the limit. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  dailyLimitCents?: number | null;

  /** Null removes the limit. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  monthlyLimitCents?: number | null;

  /** Null removes the threshold. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  requireApprovalAboveCents?: number | null;

  /** Replaces the allowlist; [] allows every vendor. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(POLICY_LIMITS.vendorAllowlist)
  @Matches(VENDOR_SLUG, { each: true, message: 'each vendorAllowlist entry must be a vendor slug' })
  vendorAllowlist?: string[];

  /** Replaces the blocked types; [] blocks none. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(POLICY_LIMITS.blockedTypes)
  @IsIn(POLICY_PACKAGE_TYPES, { each: true })
  blockedTypes?: PackageType[];

  @Optional()
  @IsBoolean()
  active?: boolean;
}
