import { ApiProperty } from '@nestjs/swagger';
import { SCAN_STATUSES } from '../domain/listing.decider';

export class UploadedReleaseSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() version: string;
  /** `pending` for a new upload; a retried upload of the same archive answers with its release as it stands. */
  @ApiProperty({ enum: SCAN_STATUSES }) scanStatus: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class UploadedListingSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
}

export class UploadedRelease {
  @ApiProperty({ type: UploadedReleaseSummary }) release: UploadedReleaseSummary;
  @ApiProperty({ type: UploadedListingSummary }) listing: UploadedListingSummary;
}

export class Published {
  @ApiProperty({ example: true }) ok: true;
  @ApiProperty() version: string;
}
