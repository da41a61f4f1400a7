import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CallResult {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'What the tool answered: for MCP the tools/call result ({content, structuredContent}); for JSON protocols the JSON object it answered (other JSON values as {value})',
  })
  result: Record<string, unknown>;
  @ApiProperty({ description: 'integer cents charged for this call' }) costCents: number;
  @ApiProperty({ description: 'the wallet balance right after this call was charged' }) walletBalanceCents: number;
  @ApiProperty({ format: 'uuid', description: 'the call, as recorded (ServiceCalled)' }) usageRecordId: string;
  @ApiProperty() durationMs: number;
}

export class CallRefused {
  @ApiProperty() message: string;
  @ApiPropertyOptional({ enum: ['insufficient_balance', 'max_cost_exceeded'] }) status?: string;
  @ApiPropertyOptional() balanceCents?: number;
  @ApiPropertyOptional() requiredCents?: number;
  @ApiPropertyOptional() costCents?: number;
}

export class CallFailed {
  @ApiProperty({ description: "the service's own message; nothing was charged" }) message: string;
  @ApiPropertyOptional({ format: 'uuid' }) usageRecordId?: string;
}

export class SessionSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['open', 'closed'] }) status: string;
  @ApiProperty({ type: String, nullable: true }) protocol: string | null;
  @ApiProperty({ type: String, nullable: true }) transport: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class OpenedSessionResult {
  @ApiProperty({ type: SessionSummary }) session: SessionSummary;
  @ApiProperty({ format: 'uuid' }) listingId: string;
}

export class SessionDetailResult {
  @ApiProperty({ type: SessionSummary }) session: SessionSummary;
  @ApiProperty({ enum: ['buyer', 'vendor'] }) role: string;
  @ApiProperty({ format: 'uuid' }) listingId: string;
  @ApiProperty() listingSlug: string;
  @ApiProperty() vendorSlug: string;
}

export class SentMessageRef {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() type: string;
  @ApiProperty({ enum: ['delivered', 'stored', 'failed'] }) deliveryStatus: string;
}

export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() type: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload: Record<string, unknown>;
}

export class SentMessageResult {
  @ApiProperty({ type: SentMessageRef }) sent: SentMessageRef;
  @ApiProperty({ type: [MessageResponse] }) responses: MessageResponse[];
}

export class Message {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['outbound', 'inbound'] }) direction: string;
  @ApiProperty() messageType: string;
  @ApiProperty({ type: String, nullable: true }) correlationId: string | null;
  @ApiProperty({ enum: ['delivered', 'stored', 'failed'] }) deliveryStatus: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload: Record<string, unknown>;
}

export class Messages {
  @ApiProperty({ type: [Message] }) messages: Message[];
}

export class ClosedSessionRef {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['closed'] }) status: string;
}

export class ClosedSession {
  @ApiProperty({ example: true }) ok: true;
  @ApiProperty({ type: ClosedSessionRef }) session: ClosedSessionRef;
}

export class InboxSession {
  @ApiProperty({ type: SessionSummary }) session: SessionSummary;
  @ApiProperty() listingSlug: string;
  @ApiProperty({ format: 'uuid' }) listingId: string;
}

export class Inbox {
  @ApiProperty({ type: [InboxSession] }) sessions: InboxSession[];
}

export class ServiceCard {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty({ type: String, nullable: true }) protocol: string | null;
  @ApiProperty({ type: String, nullable: true }) transport: string | null;
  @ApiProperty() endpoint: string;
  @ApiProperty({ type: [String], description: 'as the service itself lists them (its latest successful probe)' })
  toolNames: string[];
  @ApiProperty({ type: [String] }) settlementMethods: string[];
  @ApiProperty({ type: Number, nullable: true }) perCallCents: number | null;
  @ApiProperty({ enum: ['active', 'inactive', 'degraded'] }) status: string;
  @ApiProperty() totalCalls: number;
  @ApiProperty({ description: 'successful calls / settled calls, a decimal fraction with 4 places ("0.9500")' })
  successRate: string;
  @ApiProperty() avgResponseMs: number;
  @ApiProperty({ description: 'percent of successful probes over the last 24 hours, 2 places ("99.50")' }) uptimePct: string;
}

export class Services {
  @ApiProperty({ type: [ServiceCard] }) services: ServiceCard[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() perPage: number;
}

export class LatestCheck {
  @ApiProperty({ enum: ['ok', 'error'] }) status: string;
  @ApiProperty() responseMs: number;
  @ApiProperty() toolsCount: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ format: 'date-time' }) checkedAt: string;
}

export class HealthProbe {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty() serviceEndpoint: string;
  @ApiProperty({ enum: ['active', 'inactive', 'degraded'] }) serviceStatus: string;
  @ApiProperty() uptimePct: string;
  @ApiProperty({ type: LatestCheck, nullable: true }) latestCheck: LatestCheck | null;
}

export class ServiceHealthList {
  @ApiProperty({ type: [HealthProbe] }) listings: HealthProbe[];
}
