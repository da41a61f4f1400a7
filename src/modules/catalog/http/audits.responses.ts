import { ApiProperty } from '@nestjs/swagger';
import { PACKAGE_TYPES } from '../archive/package-manifest';
import { SCAN_STATUSES } from '../domain/listing.decider';

export class AuditScan {
  @ApiProperty({ enum: SCAN_STATUSES }) status: string;
  /** The scanner's label (e.g. `clean`, `warnings`, `unsafe`); `pending` while the release awaits its scan. */
  @ApiProperty({ example: 'clean' }) label: string;
  /** 0-100; 0 while the release awaits its scan. */
  @ApiProperty() qualityScore: number;
  /** Version of the latest uploaded release, which may be newer than the listing's published one. */
  @ApiProperty() version: string;
  /** Null while the release awaits its scan. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) scannedAt: string | null;
}

export class PromptGuardFile {
  @ApiProperty() file: string;
  @ApiProperty() label: string;
  @ApiProperty() score: number;
}

/** While the release awaits its scan: `{ran: false, verified: false, perFile: []}`. */
export class PromptGuardResult {
  @ApiProperty() ran: boolean;
  @ApiProperty() verified: boolean;
  @ApiProperty({ type: [PromptGuardFile] }) perFile: PromptGuardFile[];
}

export class AuditItemResponse {
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

export class AuditsResponse {
  @ApiProperty({ type: [AuditItemResponse] }) audits: AuditItemResponse[];
  /** Items matching the filters, over all pages. */
  @ApiProperty() total: number;
  @ApiProperty({ format: 'date-time' }) generatedAt: string;
}
