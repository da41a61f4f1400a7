import { Command } from '@nestjs/cqrs';
import { DeliveryStatus } from '../../domain/session.decider';

export interface SentMessage {
  sent: { id: string; type: string; deliveryStatus: DeliveryStatus };
  responses: { id: string; type: string; payload: Record<string, unknown> }[];
}

/** The buyer sends a typed message on an open session; it is stored, then delivered where the protocol takes messages. */
export class SendMessageCommand extends Command<SentMessage> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly message: { type: string; correlationId?: string; payload: Record<string, unknown> },
  ) {
    super();
  }
}
