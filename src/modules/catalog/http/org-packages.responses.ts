import { ApiProperty } from '@nestjs/swagger';
import { LISTING_STATUSES } from '../domain/listing-fields';
import { LISTING_VISIBILITIES } from '../domain/listing.decider';

export class OrgPackage {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty() slug: string;
  @ApiProperty() type: string;
  @ApiProperty() title: string;
  @ApiProperty({ enum: LISTING_STATUSES }) status: string;
  @ApiProperty({ enum: LISTING_VISIBILITIES }) visibility: string;
  @ApiProperty({ type: String, nullable: true }) latestVersion: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class OrgPackageList {
  @ApiProperty({ type: [OrgPackage] }) packages: OrgPackage[];
}

export class OrgPackageAnswer {
  @ApiProperty({ type: OrgPackage }) package: OrgPackage;
}
