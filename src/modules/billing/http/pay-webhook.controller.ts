import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../platform/http/access';
import { rawBodyOf } from '../../../platform/http/json-body';
import { ReceivePaymentEventCommand } from '../commands/receive-payment-event/receive-payment-event.command';
import { WebhookReceived } from './billing.responses';

@ApiTags('billing')
@Controller('v1/webhooks')
export class PayWebhookController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The payment processor's events, signed in header `pay-signature` (`t=<unix seconds>,v1=<hex HMAC-SHA256 of
   * "<t>.<raw body>">` with STRIPE_WEBHOOK_SECRET; `t` within 300 s of our clock, before or after). Answers once the event is stored; wallets are
   * credited by process managers that follow the log. A redelivered event is stored once.
   */
  @Post('pay')
  @Public()
  @HttpCode(200)
  @ApiHeader({ name: 'pay-signature', required: true })
  @ApiBody({ schema: { type: 'object', description: "The processor's event: id, type, created, data.object" } })
  @ApiOkResponse({ type: WebhookReceived })
  @ApiBadRequestResponse({
    description: 'Missing, malformed or wrong signature, one dated more than 300 s from now (past or future), or not an event',
  })
  async receive(@Req() request: FastifyRequest, @Headers('pay-signature') signature?: string): Promise<WebhookReceived> {
    await this.commands.execute(new ReceivePaymentEventCommand(rawBodyOf(request), signature));
    return { received: true };
  }
}
