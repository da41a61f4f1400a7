import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  LISTING_LIMITS,
  LISTING_STATUSES,
  ListingStatus,
  MAX_PRICE_CENTS,
  PRICING_MODELS,
  PricingModel,
  SERVICE_PROTOCOLS,
  SERVICE_TRANSPORTS,
  ServiceProtocol,
  ServiceTransport,
  SETTLEMENT_METHODS,
  SettlementMethod,
} from '../../domain/listing-fields';
import { IsSmallJsonDocument } from './small-json-document';

/** Any subset of the listing's editable fields; `null` clears a nullable one. */
export class UpdateListingDto {
  @IsOptional()
  @IsString()
  @Length(1, LISTING_LIMITS.title)
  title?: string;

  @IsOptional()
  @IsString()
  @Length(1, LISTING_LIMITS.description)
  description?: string;

  /** At most 10 tags of lowercase letters, digits and hyphens. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LISTING_LIMITS.tags)
  @ArrayUnique()
  @Matches(/^[a-z0-9-]{1,32}$/, { each: true, message: 'each tag must be 1-32 lowercase letters, digits or hyphens' })
  tags?: string[];

  /** 0 means free. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE_CENTS)
  priceCents?: number;

  @IsOptional()
  @IsString()
  @MaxLength(LISTING_LIMITS.readmeBytes)
  readmeMd?: string;

  @IsOptional()
  @IsIn(LISTING_STATUSES)
  status?: ListingStatus;

  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'serviceEndpoint must be an http(s) URL' },
  )
  @MaxLength(2048)
  serviceEndpoint?: string | null;

  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsIn(SERVICE_PROTOCOLS)
  serviceProtocol?: ServiceProtocol | null;

  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsIn(SERVICE_TRANSPORTS)
  serviceTransport?: ServiceTransport | null;

  @IsOptional()
  @IsIn(PRICING_MODELS)
  pricingModel?: PricingModel;

  /** Required when pricingModel is metered. */
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE_CENTS)
  perCallCents?: number | null;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(SETTLEMENT_METHODS, { each: true })
  settlementMethods?: SettlementMethod[];

  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsObject()
  @IsSmallJsonDocument(LISTING_LIMITS.documentBytes)
  capabilities?: Record<string, unknown> | null;

  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsObject()
  @IsSmallJsonDocument(LISTING_LIMITS.documentBytes)
  agentCard?: Record<string, unknown> | null;
}
