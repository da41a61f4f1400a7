import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../platform/http/access';
import { PACKAGE_TYPES } from '../archive/package-manifest';
import { AUDIT_STATUSES, AuditsParamsDto, AuditsQuery } from '../queries/audits';

class AuditScan {
  @ApiProperty({ enum: AUDIT_STATUSES }) status: string;
  /** The scanner's label (e.g. `clean`, `warnings`, `unsafe`); `pending` while the release awaits its scan. */
  @ApiProperty({ example: 'clean' }) label: string;
  /** 0-100; 0 while the release awaits its scan. */
  @ApiProperty() qualityScore: number;
  /** Version of the latest uploaded release, which may be newer than the listing's published one. */
  @ApiProperty() version: string;
  /** Null while the release awaits its scan. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) scannedAt: string | null;
}

class PromptGuardFile {
  @ApiProperty() file: string;
  @ApiProperty() label: string;
  @ApiProperty() score: number;
}

/** While the release awaits its scan: `{ran: false, verified: false, perFile: []}`. */
class PromptGuardResult {
  @ApiProperty() ran: boolean;
  @ApiProperty() verified: boolean;
  @ApiProperty({ type: [PromptGuardFile] }) perFile: PromptGuardFile[];
}

class AuditItemResponse {
  /** 1-based over the whole list (`offset` + 1 for the first item). */
  @ApiProperty() rank: number;
  /** The vendor's slug. */
  @ApiProperty() vendor: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty({ enum: PACKAGE_TYPES }) type: string;
  @ApiProperty() vendorVerified: boolean;
  /** Average review rating, 0 without reviews. */
  @ApiProperty({ example: 4.5 }) svcRating: number;
  @ApiProperty() installCount: number;
  @ApiProperty({ type: AuditScan }) scan: AuditScan;
  @ApiProperty({ type: PromptGuardResult }) promptGuard: PromptGuardResult;
}

class AuditsResponse {
  @ApiProperty({ type: [AuditItemResponse] }) audits: AuditItemResponse[];
  /** Items matching the filters, over all pages. */
  @ApiProperty() total: number;
  @ApiProperty({ format: 'date-time' }) generatedAt: string;
}

/**
 * Public security audits: every published listing with the scan of its latest
 * uploaded release (a newer pending or failed upload shows), most installed
 * first, ties on the listing id. `status` filters on that scan.
 */
@ApiTags('audits')
@Public()
@Controller('v1/audits')
export class AuditsController {
  constructor(private readonly audits: AuditsQuery) {}

  @Get()
  @ApiOkResponse({ type: AuditsResponse })
  list(@Query() params: AuditsParamsDto): Promise<AuditsResponse> {
    return this.audits.list(params);
  }
}
