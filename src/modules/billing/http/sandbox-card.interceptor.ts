import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError } from '../../../platform/errors/domain-error';
import { SANDBOX_CARD_HEADER, SandboxCardEntry } from '../adapters/sandbox-card-entry';
import { sandboxTestCard } from '../adapters/sandbox-test-cards';
import { PaymentGateway } from '../domain/payment-gateway';

/**
 * Reads `Pay-Sandbox-Card` (see SANDBOX_CARD_HEADER) on any request and
 * serves the request with that card as the one the customer typed. A number
 * that is not one of the sandbox's test cards is a 400 saying which are; so is
 * the header on a server whose gateway is the real processor, where no test
 * card can be forced.
 */
@Injectable()
export class SandboxCardInterceptor implements NestInterceptor {
  constructor(private readonly gateway: PaymentGateway) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers[SANDBOX_CARD_HEADER];
    if (header === undefined) return next.handle();
    if (this.gateway.name !== 'sandbox')
      throw new DomainError(
        'invalid',
        'Pay-Sandbox-Card names a test card for the payment sandbox, and this server takes payments through the processor: ' +
          "use the processor's own test mode instead",
      );
    if (typeof header !== 'string') throw new DomainError('invalid', 'Pay-Sandbox-Card may be given once');
    const card = sandboxTestCard(header);
    return from(SandboxCardEntry.run(card, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
