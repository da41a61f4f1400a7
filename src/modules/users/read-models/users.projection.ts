import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { UserEvent } from '../domain/user.decider';
import { UserEvents } from '../events';

/**
 * `users`. It sees personal fields already opened by the event store, or null
 * once the user's key is shredded, so a rebuild after a deletion restores nothing.
 */
@Injectable()
@AsProjection()
export class UsersProjection implements Projection {
  readonly name = 'users';
  readonly eventTypes = [UserEvents.UserRegistered, UserEvents.UserProfileChanged, UserEvents.UserDeleted];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const { type, data } = event as unknown as UserEvent;
    if (type === UserEvents.UserRegistered) {
      await tx.query(
        `INSERT INTO users (id, email, name, avatar_url, email_verified, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [data.userId, data.email, data.name, data.avatarUrl, data.emailVerified, data.registeredAt],
      );
    } else if (type === UserEvents.UserProfileChanged) {
      if (data.name !== undefined) await tx.query('UPDATE users SET name = $2 WHERE id = $1', [data.userId, data.name]);
      if (data.avatarUrl !== undefined)
        await tx.query('UPDATE users SET avatar_url = $2 WHERE id = $1', [data.userId, data.avatarUrl]);
    } else if (type === UserEvents.UserDeleted) {
      await tx.query('UPDATE users SET email = NULL, name = NULL, avatar_url = NULL, deleted_at = $2 WHERE id = $1', [
        data.userId,
        data.deletedAt,
      ]);
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM users');
  }
}
