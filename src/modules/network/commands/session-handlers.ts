import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { EventStore } from '../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { derivedId } from '../../../platform/ids';
import { ServiceCallError, ServiceClient, SessionReply } from '../clients/service-client';
import { DeliveryStatus, SessionMessage, sessionDecider, SessionState, sessionStreamId } from '../domain/session.decider';
import { ServiceTerms } from '../domain/service-terms';
import { ServiceDirectory } from '../read-models/service-directory';
import { CloseSessionCommand } from './close-session/close-session.command';
import { OpenedSession, OpenSessionCommand } from './open-session/open-session.command';
import { SendMessageCommand, SentMessage } from './send-message/send-message.command';

/** How long a message waits for the vendor's service to take it. */
const DELIVERY_TIMEOUT_CAP_MS = 10_000;

type Open = Extract<SessionState, { status: 'open' | 'closed' }>;

/**
 * The session's buyer and the listing's vendor see it; anyone else gets 404, as if it did not exist.
 *
 * A session outlives a change of its listing's visibility only as the buyer's own record: when the listing turns
 * private (or back to draft) and the buyer is not a member of its org, the buyer still reads the session and its
 * messages (what was said is theirs) and may close it (closing only gives access up), but sending would reach the
 * vendor's service again, so it is answered as for a service that does not exist, as are calls and new sessions.
 */
function requireParticipant(state: SessionState, userId: string): Open {
  if (state.status === 'none' || (state.facts.buyerId !== userId && state.facts.vendorId !== userId))
    throw new DomainError('not_found', 'Session not found');
  return state;
}

/** Delivers a message where the service takes messages; what happened becomes its `deliveryStatus`. */
async function deliver(
  client: ServiceClient,
  terms: ServiceTerms,
  session: Open,
  message: { id: string; type: string; correlationId: string | null; payload: Record<string, unknown> },
  timeoutMs: number,
): Promise<{ status: DeliveryStatus; replies: SessionReply[] }> {
  if (!terms.endpoint || !terms.protocol) return { status: 'stored', replies: [] };
  try {
    const replies = await client.deliver(
      { endpoint: terms.endpoint, protocol: terms.protocol, transport: terms.transport },
      session.facts.sessionId,
      message,
      Math.min(timeoutMs, DELIVERY_TIMEOUT_CAP_MS),
    );
    return replies === null ? { status: 'stored', replies: [] } : { status: 'delivered', replies };
  } catch (error) {
    if (error instanceof ServiceCallError) return { status: 'failed', replies: [] };
    throw error;
  }
}

function messagesOf(
  sent: { id: string; type: string; correlationId: string | null; payload: Record<string, unknown> },
  status: DeliveryStatus,
  replies: SessionReply[],
): Omit<SessionMessage, 'sentAt'>[] {
  return [
    {
      messageId: sent.id,
      direction: 'outbound',
      messageType: sent.type,
      correlationId: sent.correlationId,
      payload: sent.payload,
      deliveryStatus: status,
    },
    ...replies.map((reply, index) => ({
      messageId: derivedId('SessionReply', sent.id, String(index)),
      direction: 'inbound' as const,
      messageType: reply.type,
      correlationId: reply.correlationId ?? sent.correlationId,
      payload: reply.payload,
      deliveryStatus: 'delivered' as const,
    })),
  ];
}

@CommandHandler(OpenSessionCommand)
export class OpenSessionHandler implements ICommandHandler<OpenSessionCommand, OpenedSession> {
  constructor(
    private readonly store: EventStore,
    private readonly directory: ServiceDirectory,
    private readonly client: ServiceClient,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: OpenSessionCommand): Promise<OpenedSession> {
    const { terms, vendorSlug, slug } = await this.directory.require(command.vendorSlug, command.slug, command.buyerId);
    if (command.settlementMethod === 'pay_mpp' || command.settlementMethod === 'pay_acp')
      throw new DomainError('unprocessable', `Settling by ${command.settlementMethod} is not supported yet: use wallet or free`);
    const now = this.clock.now();
    const sessionId = randomUUID();
    const facts = {
      sessionId,
      buyerId: command.buyerId,
      listingId: terms.listingId,
      vendorId: terms.vendorId,
      vendorSlug,
      listingSlug: slug,
      protocol: terms.protocol,
      transport: terms.transport,
    };
    const opened = sessionDecider.decide(
      { type: 'Open', facts, context: command.context ?? null, settlementMethod: command.settlementMethod ?? null, now },
      { status: 'none' },
    );
    const events = [...opened];
    if (command.intent !== undefined) {
      const state = opened.reduce(sessionDecider.evolve, sessionDecider.initialState) as Open;
      const intent = { id: randomUUID(), type: 'intent.open', correlationId: null, payload: { text: command.intent } };
      const delivery = await deliver(this.client, terms, state, intent, this.config.network.serviceCallTimeoutMs);
      events.push(
        ...sessionDecider.decide({ type: 'Send', messages: messagesOf(intent, delivery.status, delivery.replies), now }, state),
      );
    }
    await this.store.append(sessionStreamId(sessionId), events, 'no_stream');
    return {
      session: {
        id: sessionId,
        status: 'open',
        protocol: terms.protocol,
        transport: terms.transport,
        createdAt: now.toISOString(),
      },
      listingId: terms.listingId,
    };
  }
}

@CommandHandler(SendMessageCommand)
export class SendMessageHandler implements ICommandHandler<SendMessageCommand, SentMessage> {
  constructor(
    private readonly store: EventStore,
    private readonly directory: ServiceDirectory,
    private readonly client: ServiceClient,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ userId, sessionId, message }: SendMessageCommand): Promise<SentMessage> {
    const { state } = await this.directory.session(sessionId);
    const session = requireParticipant(state, userId);
    if (session.facts.buyerId !== userId)
      throw new DomainError('forbidden', "Only the session's buyer sends messages here; the vendor's service answers them");
    if (session.status === 'closed') throw new DomainError('conflict', 'The session is closed: it takes no more messages');
    const terms = await this.directory.forSession(session.facts.listingId, userId);
    const sent = { id: randomUUID(), type: message.type, correlationId: message.correlationId ?? null, payload: message.payload };
    const delivery = await deliver(this.client, terms, session, sent, this.config.network.serviceCallTimeoutMs);
    const messages = messagesOf(sent, delivery.status, delivery.replies);
    await retryOnConflict(async () => {
      const current = await this.directory.session(sessionId);
      const events = sessionDecider.decide({ type: 'Send', messages, now: this.clock.now() }, current.state);
      await this.store.append(sessionStreamId(sessionId), events, expectedAt(current.revision));
    });
    return {
      sent: { id: sent.id, type: sent.type, deliveryStatus: delivery.status },
      responses: messages.slice(1).map((m) => ({ id: m.messageId, type: m.messageType, payload: m.payload })),
    };
  }
}

@CommandHandler(CloseSessionCommand)
export class CloseSessionHandler implements ICommandHandler<
  CloseSessionCommand,
  { ok: true; session: { id: string; status: 'closed' } }
> {
  constructor(
    private readonly store: EventStore,
    private readonly directory: ServiceDirectory,
    private readonly clock: Clock,
  ) {}

  async execute({ userId, sessionId }: CloseSessionCommand): Promise<{ ok: true; session: { id: string; status: 'closed' } }> {
    await retryOnConflict(async () => {
      const current = await this.directory.session(sessionId);
      requireParticipant(current.state, userId);
      const events = sessionDecider.decide({ type: 'Close', by: userId, now: this.clock.now() }, current.state);
      if (events.length > 0) await this.store.append(sessionStreamId(sessionId), events, expectedAt(current.revision));
    });
    return { ok: true, session: { id: sessionId, status: 'closed' } };
  }
}
