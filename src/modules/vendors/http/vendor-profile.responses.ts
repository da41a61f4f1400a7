import { ApiProperty } from '@nestjs/swagger';
import { VendorVerification } from './verification.responses';

export class VendorProfile extends VendorVerification {
  @ApiProperty() slug: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ type: String, nullable: true }) website: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
