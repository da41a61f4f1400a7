import { CommandBus, ICommand } from '@nestjs/cqrs';
import { EventStore, RecordedEvent } from '../../src/event-store/event-store';
import { IssuedToken, IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { DeleteUserCommand } from '../../src/modules/users/commands/delete-user/delete-user.command';
import { emailStreamId } from '../../src/modules/users/domain/email-reservation';
import { UserDeletionSaga } from '../../src/sagas/user-deletion/user-deletion.saga';
import { callerFor, newCaller, registerUser } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';

describe('account deletion', () => {
  describe('with processors running', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => app?.close());

    it('leaves no token of a deleted account working, even one minted a moment before', async () => {
      const caller = await newCaller(app);
      const commands = app.server.app.get(CommandBus);
      // Minted outside a request, so nothing waits for the token projection: the deletion races it.
      const fresh: IssuedToken = await commands.execute(new IssueTokenCommand(caller.userId, 'fresh', ['read', 'sell'], 'admin'));
      const deleted = await caller.call('DELETE', '/v1/users/me');
      expect(deleted.status).toBe(200);

      const late = callerFor(app, caller.userId, fresh.token);
      for (const [method, path, body] of [
        ['GET', '/v1/users/me'],
        ['GET', '/v1/auth/tokens'],
        ['POST', '/v1/auth/tokens', { name: 'child', scopes: ['read'] }],
        ['POST', '/v1/vendor/profile', { slug: 'ghost-vendor', displayName: 'Ghost' }],
      ] as const) {
        const response = await late.call(method, path, body);
        expect({ path, status: response.status }).toEqual({ path, status: 401 });
        expect((await json(response)).message).toEqual(expect.any(String));
      }
      // Issuing is refused by the user's own stream, whatever the read models say.
      await expect(commands.execute(new IssueTokenCommand(caller.userId, 'after', ['read'], 'admin'))).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    });

    it('records who and what caused each event: the request, the caller, and the deletion behind each revocation', async () => {
      const caller = await newCaller(app);
      const second: IssuedToken = await app.server.app
        .get(CommandBus)
        .execute(new IssueTokenCommand(caller.userId, 'second', ['read'], 'admin'));
      const deleted = await caller.call('DELETE', '/v1/users/me');
      expect(deleted.status).toBe(200);
      const requestId = deleted.headers.get('x-request-id');

      const store = app.server.app.get(EventStore);
      const userStream = await store.readStream(`user-${caller.userId}`);
      const deletion = userStream.find((e) => e.type === 'UserDeleted')!;
      expect(deletion.metadata).toMatchObject({ correlationId: requestId, actorUserId: caller.userId, schemaVersion: 2 });
      expect(deletion.metadata.tokenId).toEqual(expect.any(String));
      expect(deletion.data.tokenIds).toHaveLength(2);

      const [revoked] = (await store.readStream(`token-${second.tokenId}`)).filter((e) => e.type === 'TokenRevoked');
      expect(revoked.data).toMatchObject({ reason: 'user_deleted' });
      expect(revoked.metadata).toMatchObject({
        correlationId: requestId,
        causationId: deletion.eventId,
        actorUserId: caller.userId,
      });
    });
  });

  describe('the deletion saga, stopped halfway', () => {
    let app: TestApp;
    // No processors: the test delivers UserDeleted to the saga itself.
    beforeAll(async () => {
      app = await startTestApp({ env: { RUN_PROCESSORS: 'false' } });
    });
    afterAll(async () => app?.close());

    it('finishes the job on redelivery, revoking each token and freeing the email exactly once', async () => {
      const commands = app.server.app.get(CommandBus);
      const store = app.server.app.get(EventStore);
      const email = `halfway-${Date.now()}@example.com`;
      const userId = await registerUser(app, email);
      const tokens: IssuedToken[] = [];
      for (const name of ['one', 'two', 'three'])
        tokens.push(await commands.execute(new IssueTokenCommand(userId, name, ['read'], 'admin')));
      await commands.execute(new DeleteUserCommand(userId));
      const deletion = (await store.readStream(`user-${userId}`)).find((e) => e.type === 'UserDeleted')!;

      // A process that dies after its second command.
      let executed = 0;
      const dying = {
        execute: async (command: ICommand) => {
          if (executed++ === 2) throw new Error('killed');
          return commands.execute(command);
        },
      } as unknown as CommandBus;
      await expect(new UserDeletionSaga(dying).handle(deletion)).rejects.toThrow('killed');
      const revocations = async () => {
        const counts: number[] = [];
        for (const { tokenId } of tokens)
          counts.push((await store.readStream(`token-${tokenId}`)).filter((e) => e.type === 'TokenRevoked').length);
        return counts;
      };
      expect(await revocations()).toEqual([1, 1, 0]);

      // The runner redelivers the event, twice for good measure.
      const saga = app.server.app.get(UserDeletionSaga);
      await saga.handle(deletion);
      await saga.handle(deletion);
      expect(await revocations()).toEqual([1, 1, 1]);
      const reservation: RecordedEvent[] = await store.readStream(emailStreamId(email));
      expect(reservation.map((e) => e.type)).toEqual(['EmailReserved', 'EmailReleased']);
      const [registered] = await store.readStream(`user-${userId}`);
      expect(registered.data.email).toBeNull();
    });
  });
});
