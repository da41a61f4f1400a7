import { ApiProperty } from '@nestjs/swagger';

export class SearchResultItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty() type: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [String] }) targets: string[];
  @ApiProperty() priceCents: number;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty() latestVersion: string;
  @ApiProperty() installCount: number;
  @ApiProperty({ example: '4.50' }) svcRating: string;
  @ApiProperty() vendorName: string;
  @ApiProperty() vendorVerified: boolean;
}

export class SearchResponse {
  @ApiProperty({ type: [SearchResultItem] }) results: SearchResultItem[];
  /** Null when walking with a cursor. */
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'How many listings match: exact up to 1,000; past that an estimate (always above 1,000). Null when walking with a cursor.',
  })
  total: number | null;
  @ApiProperty({ type: Number, nullable: true }) page: number | null;
  @ApiProperty() perPage: number;
  /** Pass as `cursor` for the next page; null at the end. */
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}
