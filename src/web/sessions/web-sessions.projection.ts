import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../event-store/event-store';
import { UserEvents } from '../../modules/users/events';
import { AsProjection, Projection } from '../../projections/runner/processor';

/**
 * Ends a deleted account's web sessions (its tokens are revoked by the deletion itself).
 * Sessions are not rebuilt from the log, so a reset leaves them as they are.
 */
@Injectable()
@AsProjection()
export class WebSessionsProjection implements Projection {
  readonly name = 'web-sessions';
  readonly eventTypes = [UserEvents.UserDeleted];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const { userId } = event.data as { userId: string };
    await tx.query('DELETE FROM web_sessions WHERE user_id = $1', [userId]);
  }

  async reset(): Promise<void> {}
}
