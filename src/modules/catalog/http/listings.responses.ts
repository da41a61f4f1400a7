import { ApiProperty } from '@nestjs/swagger';

export class ListingVendor {
  @ApiProperty() slug: string;
  @ApiProperty() displayName: string;
  @ApiProperty() verified: boolean;
  @ApiProperty() domainVerified: boolean;
  @ApiProperty() githubVerified: boolean;
  @ApiProperty({ type: String, nullable: true }) githubOrg: string | null;
}

export class Listing {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: ['skill', 'rule', 'bundle', 'template', 'mcp'] }) type: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [String] }) targets: string[];
  /** MCP tool names the package provides. */
  @ApiProperty({ type: [String] }) tools: string[];
  @ApiProperty() priceCents: number;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ type: String, nullable: true }) latestVersion: string | null;
  @ApiProperty() installCount: number;
  /** The average rating as a string with two decimals, as in search results. */
  @ApiProperty({ example: '4.50' }) svcRating: string;
  @ApiProperty() vendorName: string;
  @ApiProperty() vendorVerified: boolean;
  @ApiProperty({ type: ListingVendor }) vendor: ListingVendor;
  @ApiProperty({ type: String, nullable: true }) readmeMd: string | null;
  @ApiProperty({ enum: ['published', 'unlisted', 'draft'] }) status: string;
  @ApiProperty({ type: String, nullable: true }) serviceEndpoint: string | null;
  @ApiProperty({ type: String, nullable: true }) serviceProtocol: string | null;
  @ApiProperty({ type: String, nullable: true }) serviceTransport: string | null;
  @ApiProperty({ enum: ['one_time', 'metered', 'monthly', 'annual'] }) pricingModel: string;
  @ApiProperty({ type: Number, nullable: true }) perCallCents: number | null;
  @ApiProperty({ type: [String] }) settlementMethods: string[];
  @ApiProperty({ type: Object, nullable: true }) capabilities: Record<string, unknown> | null;
  @ApiProperty({ type: Object, nullable: true }) agentCard: Record<string, unknown> | null;
  @ApiProperty() rating: number;
  @ApiProperty() ratingCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class PublishedReleaseItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() version: string;
  @ApiProperty() archiveSha256: string;
  @ApiProperty({ format: 'date-time' }) publishedAt: string;
  @ApiProperty({ enum: ['passed', 'flagged', 'failed', 'pending'] }) scanStatus: string;
  /** Base64 detached signature of the archive by the vendor's signing key; null when unsigned. */
  @ApiProperty({ type: String, nullable: true }) signature: string | null;
  /** SHA-256 (hex) of the signing key's SPKI DER; see GET /v1/vendors/{vendor}/signing-key. */
  @ApiProperty({ type: String, nullable: true }) signingKeyFingerprint: string | null;
}

export class PublishedReleases {
  @ApiProperty({ type: [PublishedReleaseItem] }) releases: PublishedReleaseItem[];
}
