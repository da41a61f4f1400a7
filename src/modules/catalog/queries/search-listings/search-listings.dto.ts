import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../platform/http/page-query.dto';
import { AGENT_TARGETS, AgentTarget, PACKAGE_TYPES, PackageType } from '../../archive/package-manifest';
import { SERVICE_PROTOCOLS, ServiceProtocol, SETTLEMENT_METHODS, SettlementMethod } from '../../domain/listing-fields';
import { SEARCH_SORTS, SearchCriteria, SearchSort } from './search-listings.query';

/** Query strings carry booleans as text; anything but these stays a string and fails validation. */
const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** `page` is ignored when `cursor` is set. */
export class SearchParamsDto extends PageQueryDto implements SearchCriteria {
  /** Full text over title, tags, vendor name, description and README; websearch syntax ("phrase", or, -word); words match as prefixes. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @IsOptional()
  @IsIn(PACKAGE_TYPES)
  type?: PackageType;

  @IsOptional()
  @IsIn(AGENT_TARGETS)
  target?: AgentTarget;

  /** Default `popular`; with `q` and no `sort`, results are ranked by relevance. */
  @IsOptional()
  @IsIn(SEARCH_SORTS)
  sort?: SearchSort;

  /** Only free packages. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  free?: boolean;

  /** An MCP tool name the package provides. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tool?: string;

  /** Comma-separated; a listing must carry every one of them. */
  @IsOptional()
  @IsString()
  @MaxLength(400)
  tags?: string;

  /** Only listings with a service endpoint. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  live?: boolean;

  @IsOptional()
  @IsIn(SERVICE_PROTOCOLS)
  protocol?: ServiceProtocol;

  @IsOptional()
  @IsIn(SETTLEMENT_METHODS)
  settlement?: SettlementMethod;

  /** Only verified vendors. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  verified?: boolean;

  /** The `nextCursor` of the previous response. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}
