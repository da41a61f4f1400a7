import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { ServiceProbed } from '../domain/probe';
import { ServiceCallEvent } from '../domain/service-call.decider';
import { SessionEvent } from '../domain/session.decider';
import { NetworkEvents } from '../events';

/**
 * `service_calls` and `service_stats` (settled calls: what the service cards
 * read), `service_probes` (with `service_tools`, which a trigger keeps from
 * them), and `network_sessions` with `network_messages`. The trust score's
 * success rate is the catalog's: its projection counts `ServiceCalled` itself.
 */
@Injectable()
@AsProjection()
export class NetworkProjection implements Projection {
  readonly name = 'network';
  readonly eventTypes = [
    NetworkEvents.ServiceCalled,
    NetworkEvents.ServiceProbed,
    NetworkEvents.SessionOpened,
    NetworkEvents.SessionMessageSent,
    NetworkEvents.SessionClosed,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    switch (event.type) {
      case NetworkEvents.ServiceCalled:
        return this.called(event as unknown as Extract<ServiceCallEvent, { type: 'ServiceCalled' }>, tx);
      case NetworkEvents.ServiceProbed: {
        const { data } = event as unknown as ServiceProbed;
        await tx.query(
          `INSERT INTO service_probes (id, listing_id, ok, response_ms, tool_names, error, checked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [event.eventId, data.listingId, data.status === 'ok', data.responseMs, data.toolNames, data.error, data.checkedAt],
        );
        return;
      }
    }
    const e = event as unknown as SessionEvent;
    switch (e.type) {
      case NetworkEvents.SessionOpened: {
        const d = e.data;
        await tx.query(
          `INSERT INTO network_sessions (id, buyer_id, vendor_id, listing_id, vendor_slug, listing_slug, protocol, transport, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9) ON CONFLICT (id) DO NOTHING`,
          [d.sessionId, d.buyerId, d.vendorId, d.listingId, d.vendorSlug, d.listingSlug, d.protocol, d.transport, d.openedAt],
        );
        return;
      }
      case NetworkEvents.SessionMessageSent: {
        const d = e.data;
        await tx.query(
          `INSERT INTO network_messages (id, session_id, seq, direction, message_type, correlation_id, payload, delivery_status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [
            d.messageId,
            d.sessionId,
            event.revision,
            d.direction,
            d.messageType,
            d.correlationId,
            JSON.stringify(d.payload),
            d.deliveryStatus,
            d.sentAt,
          ],
        );
        return;
      }
      case NetworkEvents.SessionClosed:
        await tx.query(`UPDATE network_sessions SET status = 'closed', closed_at = $2 WHERE id = $1`, [
          e.data.sessionId,
          e.data.closedAt,
        ]);
        return;
    }
  }

  private async called(event: Extract<ServiceCallEvent, { type: 'ServiceCalled' }>, tx: EntityManager): Promise<void> {
    const d = event.data;
    const [inserted] = await tx.query(
      `INSERT INTO service_calls (id, listing_id, caller_id, tool, cost_cents, outcome, duration_ms, called_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [d.callId, d.listingId, d.callerId, d.tool, d.chargedCents, d.outcome, d.durationMs, d.calledAt],
    );
    if (!inserted) return;
    // An abandoned call says nothing about the service: our process died, not its.
    if (d.outcome === 'abandoned') return;
    await tx.query(
      `INSERT INTO service_stats (listing_id, total_calls, successes, total_duration_ms, last_called_at)
       VALUES ($1, 1, $2, $3, $4)
       ON CONFLICT (listing_id) DO UPDATE SET total_calls = service_stats.total_calls + 1,
         successes = service_stats.successes + $2, total_duration_ms = service_stats.total_duration_ms + $3,
         last_called_at = greatest(service_stats.last_called_at, $4)`,
      [d.listingId, d.outcome === 'success' ? 1 : 0, d.durationMs, d.calledAt],
    );
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM network_messages');
    await tx.query('DELETE FROM network_sessions');
    // Kept by a trigger on inserts only.
    await tx.query('DELETE FROM service_tools');
    await tx.query('DELETE FROM service_probes');
    await tx.query('DELETE FROM service_stats');
    await tx.query('DELETE FROM service_calls');
  }
}
