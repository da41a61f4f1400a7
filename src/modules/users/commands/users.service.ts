import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { PersonalDataVault } from '../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { RevokeTokenCommand } from '../../auth/commands/revoke-token/revoke-token.command';
import { decideUser, evolveUser, initialUserState, UserCommand, UserEvent, UserState } from '../domain/user.decider';

/** Email uniqueness: a reservation stream per address, named by its hash (no plaintext in stream ids). */
function emailStreamId(email: string): string {
  return `email-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
}

/** Registration, profile changes and deletion of user accounts. */
@Injectable()
export class UsersService {
  constructor(
    private readonly store: EventStore,
    private readonly vault: PersonalDataVault,
    private readonly clock: Clock,
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
  ) {}

  /** The id of the account holding this email, if any. */
  async findByEmail(email: string): Promise<string | null> {
    const reservation = await this.store.readStream(emailStreamId(email));
    const last = reservation[reservation.length - 1];
    return last?.type === 'EmailReserved' ? (last.data.userId as string) : null;
  }

  async register(email: string, name: string | null): Promise<string> {
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) || address.length > 254)
      throw new DomainError('invalid', 'email must be a valid address');
    if (name !== null && (name.trim().length < 1 || name.length > 100))
      throw new DomainError('invalid', 'name must be 1-100 characters');
    const reservationId = emailStreamId(address);
    const reservation = await this.store.readStream(reservationId);
    if (reservation[reservation.length - 1]?.type === 'EmailReserved')
      throw new DomainError('conflict', 'An account with this email exists');
    const userId = randomUUID();
    const events = decideUser(
      {
        type: 'RegisterUser',
        userId,
        email: await this.vault.seal(userId, address),
        name: name === null ? null : await this.vault.seal(userId, name.trim()),
        emailVerified: false,
        now: this.clock.now(),
      },
      initialUserState,
    );
    await this.store.appendAtomically([
      { streamId: `user-${userId}`, events, expected: 'no_stream' },
      { streamId: reservationId, events: [{ type: 'EmailReserved', data: { userId } }], expected: reservation.length - 1 },
    ]);
    return userId;
  }

  async changeProfile(userId: string, change: { name?: string; avatarUrl?: string | null }): Promise<void> {
    await this.decide(userId, {
      type: 'ChangeProfile',
      name: change.name === undefined ? undefined : await this.vault.seal(userId, change.name),
      avatarUrl:
        change.avatarUrl === undefined || change.avatarUrl === null
          ? change.avatarUrl
          : await this.vault.seal(userId, change.avatarUrl),
      now: this.clock.now(),
    });
  }

  /** Irreversible: revokes every token, forgets the personal data (crypto-shredding), frees the email. */
  async delete(userId: string): Promise<void> {
    const [user] = await this.dataSource.query('SELECT email FROM users WHERE id = $1', [userId]);
    await this.decide(userId, { type: 'DeleteUser', now: this.clock.now() });
    const tokens = await this.dataSource.query('SELECT id FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
    for (const { id } of tokens) await this.commands.execute(new RevokeTokenCommand(id, userId, 'user_deleted'));
    if (user?.email) {
      const reservationId = emailStreamId(user.email);
      await this.store.append(reservationId, [{ type: 'EmailReleased', data: { userId } }], 'exists');
    }
    await this.vault.shred(userId);
  }

  private async decide(userId: string, command: UserCommand): Promise<void> {
    const streamId = `user-${userId}`;
    const { state, revision } = await foldStream<UserState, UserEvent>(this.store, streamId, evolveUser, initialUserState);
    const events = decideUser(command, state);
    if (events.length > 0) await this.store.append(streamId, events, revision);
  }
}
