import { CommandBus } from '@nestjs/cqrs';
import { RevokeTokenCommand } from '../../../src/modules/auth/commands/revoke-token/revoke-token.command';
import { ReleaseEmailCommand } from '../../../src/modules/users/commands/release-email/release-email.command';
import { ShredPersonalDataCommand } from '../../../src/modules/users/commands/shred-personal-data/shred-personal-data.command';
import { UserDeletionSaga } from '../../../src/sagas/user-deletion/user-deletion.saga';
import { recorded, whenSaga } from '../../support/saga';

describe('user deletion saga', () => {
  const saga = new UserDeletionSaga(undefined as unknown as CommandBus);
  const deleted = (tokenIds: string[], eventId = '11111111-1111-4111-8111-111111111111') =>
    recorded('UserDeleted', { userId: 'u1', deletedAt: '2026-11-22T10:00:00.000Z', tokenIds }, { eventId });

  it('revokes every token the deletion names, then frees the email, then shreds the key', () => {
    const reaction = whenSaga(saga).receives(deleted(['t1', 't2']));
    expect(reaction.jobs).toEqual([]);
    expect(reaction.commands.map((c) => c.constructor)).toEqual([
      RevokeTokenCommand,
      RevokeTokenCommand,
      ReleaseEmailCommand,
      ShredPersonalDataCommand,
    ]);
    expect(reaction.commands[0]).toMatchObject({ tokenId: 't1', byUserId: 'u1', reason: 'user_deleted' });
    expect(reaction.commands[1]).toMatchObject({ tokenId: 't2', byUserId: 'u1', reason: 'user_deleted' });
  });

  it('derives every event id from the deletion, so a redelivery appends nothing new', () => {
    const first = whenSaga(saga).receives(deleted(['t1', 't2']));
    const again = whenSaga(saga).receives(deleted(['t1', 't2']));
    expect(again).toEqual(first);
    const ids = first.commands.map((c) => (c as { eventId?: string }).eventId).filter(Boolean);
    expect(new Set(ids).size).toBe(3);
    const other = whenSaga(saga).receives(deleted(['t1', 't2'], '22222222-2222-4222-8222-222222222222'));
    expect((other.commands[0] as RevokeTokenCommand).eventId).not.toEqual((first.commands[0] as RevokeTokenCommand).eventId);
  });

  it('still frees the email and shreds the key of an account without tokens', () => {
    expect(
      whenSaga(saga)
        .receives(deleted([]))
        .commands.map((c) => c.constructor),
    ).toEqual([ReleaseEmailCommand, ShredPersonalDataCommand]);
  });
});
