import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { Clearable, CodePoints, Optional, SingleLine } from '../../../../platform/http/validation';
import { PackageType } from '../../../catalog/archive/package-manifest';
import { VENDOR_SLUG } from '../../../vendors/domain/vendor-profile';
import { POLICY_LIMITS, POLICY_PACKAGE_TYPES } from '../../domain/spend-policy';

/** `POST /v1/policies`: only `name` is required; a money rule left out or null sets no limit. */
export class CreatePolicyDto {
  /** 1-128 characters on one line. */
  @IsString()
  @CodePoints(1, POLICY_LIMITS.name)
  @Matches(/\S/, { message: 'name must not be only spaces' })
  @SingleLine()
  name: string;

  /** The most one purchase may cost, in cents. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  maxPerPurchaseCents?: number | null;

  /** The most the purchases of one UTC day may cost together, in cents. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  dailyLimitCents?: number | null;

  /** The most the purchases of one UTC month may cost together, in cents. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  monthlyLimitCents?: number | null;

  /** Purchases costing more than this, in cents, need the owner's approval. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(POLICY_LIMITS.cents)
  requireApprovalAboveCents?: number | null;

  /** Vendor slugs purchases are limited to; empty (the default) allows every vendor. Duplicates are dropped. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(POLICY_LIMITS.vendorAllowlist)
  @Matches(VENDOR_SLUG, { each: true, message: 'each vendorAllowlist entry must be a vendor slug' })
  vendorAllowlist?: string[];

  /** Package types purchases may not be of, free ones included. Duplicates are dropped. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(POLICY_LIMITS.blockedTypes)
  @IsIn(POLICY_PACKAGE_TYPES, { each: true })
  blockedTypes?: PackageType[];

  /** Defaults to true; an inactive policy allows every purchase. */
  @Optional()
  @IsBoolean()
  active?: boolean;
}
