import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
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
import { Clearable, CodePoints, MultiLine, Optional, SingleLine } from '../../../../platform/http/validation';
import { IsSmallJsonDocument } from './small-json-document';

/** Any subset of the listing's editable fields. `null` clears the clearable ones (`CLEARABLE_LISTING_FIELDS`) and is a 400 on any other. */
export class UpdateListingDto {
  @Optional()
  @IsString()
  @CodePoints(1, LISTING_LIMITS.title)
  @Matches(/\S/, { message: 'title must not be only spaces' })
  @SingleLine()
  title?: string;

  @Optional()
  @IsString()
  @CodePoints(1, LISTING_LIMITS.description)
  @Matches(/\S/, { message: 'description must not be only spaces' })
  @MultiLine()
  description?: string;

  /** At most 10 tags of lowercase letters, digits and hyphens. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(LISTING_LIMITS.tags)
  @ArrayUnique()
  @Matches(/^[a-z0-9-]{1,32}$/, { each: true, message: 'each tag must be 1-32 lowercase letters, digits or hyphens' })
  tags?: string[];

  /** 0 means free. */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE_CENTS)
  priceCents?: number;

  @Optional()
  @IsString()
  @MaxLength(LISTING_LIMITS.readmeBytes)
  @MultiLine()
  readmeMd?: string;

  @Optional()
  @IsIn(LISTING_STATUSES)
  status?: ListingStatus;

  @Clearable()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'serviceEndpoint must be an http(s) URL' },
  )
  @MaxLength(2048)
  serviceEndpoint?: string | null;

  @Clearable()
  @IsIn(SERVICE_PROTOCOLS)
  serviceProtocol?: ServiceProtocol | null;

  @Clearable()
  @IsIn(SERVICE_TRANSPORTS)
  serviceTransport?: ServiceTransport | null;

  @Optional()
  @IsIn(PRICING_MODELS)
  pricingModel?: PricingModel;

  /** Required when pricingModel is metered. */
  @Clearable()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE_CENTS)
  perCallCents?: number | null;

  @Optional()
  @IsArray()
  @ArrayUnique()
  @IsIn(SETTLEMENT_METHODS, { each: true })
  settlementMethods?: SettlementMethod[];

  @Clearable()
  @IsObject()
  @IsSmallJsonDocument(LISTING_LIMITS.documentBytes)
  capabilities?: Record<string, unknown> | null;

  @Clearable()
  @IsObject()
  @IsSmallJsonDocument(LISTING_LIMITS.documentBytes)
  agentCard?: Record<string, unknown> | null;
}
