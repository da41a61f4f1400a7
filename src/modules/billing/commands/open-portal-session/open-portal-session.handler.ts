import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { PaymentGateway } from '../../domain/payment-gateway';
import { BillingCustomers } from '../billing-customers';
import { OpenPortalSessionCommand } from './open-portal-session.command';

@CommandHandler(OpenPortalSessionCommand)
export class OpenPortalSessionHandler implements ICommandHandler<OpenPortalSessionCommand, { url: string }> {
  constructor(
    private readonly customers: BillingCustomers,
    private readonly gateway: PaymentGateway,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ owner }: OpenPortalSessionCommand): Promise<{ url: string }> {
    const { customerId } = await this.customers.ensure(owner);
    return this.gateway.createPortalSession({
      customerId,
      returnUrl: `${this.config.webUrl}/settings/billing`,
      idempotencyKey: randomUUID(),
    });
  }
}
