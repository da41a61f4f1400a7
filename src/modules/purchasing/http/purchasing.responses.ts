import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PurchaseResult {
  @ApiProperty({ enum: ['purchased', 'already_owned'] }) status: 'purchased' | 'already_owned';
  @ApiProperty({ format: 'uuid' }) entitlementId: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'purchased only' }) orderId?: string;
  @ApiPropertyOptional({ description: 'purchased only; integer cents' }) amountCents?: number;
  @ApiPropertyOptional({ description: 'wallet purchases only' }) walletBalanceCents?: number;
}

export class PaymentRequired {
  @ApiProperty({ enum: ['approval_required', 'insufficient_balance'] }) status: string;
  @ApiProperty() message: string;
  @ApiPropertyOptional({ description: 'approval_required: where the owner approves or checks out' }) approvalUrl?: string;
  @ApiPropertyOptional({ description: 'approval_required: why' }) reason?: string;
  @ApiPropertyOptional({ description: 'insufficient_balance' }) balanceCents?: number;
  @ApiPropertyOptional({ description: 'insufficient_balance' }) requiredCents?: number;
}

export class Entitlement {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) listingId: string;
  @ApiProperty({ format: 'uuid' }) releaseId: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty() listingSlug: string;
  @ApiProperty() listingTitle: string;
  @ApiProperty() version: string;
  @ApiProperty({ format: 'date-time' }) grantedAt: string;
}

export class Entitlements {
  @ApiProperty({ type: [Entitlement] }) entitlements: Entitlement[];
}

export class Owned {
  @ApiProperty({ example: true }) owned: true;
  @ApiProperty({ type: Entitlement }) entitlement: Entitlement;
}

export class Order {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) listingId: string;
  @ApiProperty({ format: 'uuid' }) releaseId: string;
  @ApiProperty({ description: 'Integer cents' }) amountCents: number;
  @ApiProperty({ enum: ['paid', 'pending', 'failed'] }) status: string;
  @ApiProperty({ enum: ['free', 'wallet', 'card'] }) fundingSource: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty() vendorName: string;
  @ApiProperty() listingSlug: string;
  @ApiProperty() listingTitle: string;
  @ApiProperty() version: string;
}

export class Orders {
  @ApiProperty({ type: [Order] }) orders: Order[];
}

export class DownloadTicket {
  @ApiProperty({
    format: 'uri',
    description: 'Signed and short-lived: GET it without a token (GET /v1/downloads/{releaseId}?user=&expires=&signature=)',
  })
  url: string;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: "The archive's SHA-256, hex" }) sha256: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
