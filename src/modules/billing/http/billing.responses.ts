import { ApiProperty } from '@nestjs/swagger';

export class PaymentMethod {
  @ApiProperty({ example: 'pm_1Q2w3E4r5T6y' }) id: string;
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '4242' }) last4: string;
  @ApiProperty({ example: 12 }) expMonth: number;
  @ApiProperty({ example: 2030 }) expYear: number;
}

export class PaymentMethods {
  @ApiProperty() hasStripeCustomer: boolean;
  @ApiProperty({ type: [PaymentMethod] }) paymentMethods: PaymentMethod[];
}

export class ClientSecret {
  @ApiProperty({ description: "The processor's `<intent id>_secret_<random>`, for its client library to confirm the intent" })
  clientSecret: string;
}

export class PortalSession {
  @ApiProperty({ format: 'uri' }) url: string;
}

export class CardSetupSession {
  @ApiProperty({ format: 'uri', description: "The processor's hosted card form; it expires within a day" })
  url: string;
}

export class WebhookReceived {
  @ApiProperty({ example: true }) received: true;
}

export class SellerLink {
  @ApiProperty({ format: 'uri', description: 'A single-use page at the payment processor; it expires within minutes' })
  url: string;
}
