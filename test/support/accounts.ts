import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { Scope, SCOPES } from '../../src/modules/auth/domain/api-token';
import { RegisterUserCommand } from '../../src/modules/users/commands/register-user/register-user.command';
import { TestApp } from './app';
import { eventually } from './eventually';

// Re-exported: tests have long imported it from here.
export { eventually };

export interface Caller {
  userId: string;
  token: string;
  /** A request with this caller's token; a plain object body is sent as JSON. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** A fresh account (tokens are granted only to accounts that exist); answers its id. */
export function registerUser(
  app: TestApp,
  email = `user-${randomUUID()}@example.com`,
  name: string | null = null,
): Promise<string> {
  return app.server.app.get(CommandBus).execute(new RegisterUserCommand(email, name));
}

/** A user with a fresh token, usable at once (outside a request nothing else waits for the token projection). */
export async function newCaller(app: TestApp, scopes: Scope[] = [...SCOPES]): Promise<Caller> {
  const userId = await registerUser(app);
  const { token } = await app.server.app.get(CommandBus).execute(new IssueTokenCommand(userId, 'test', scopes, 'admin'));
  const caller = callerFor(app, userId, token);
  await eventually(async () => (await caller.call('GET', '/v1/auth/tokens')).status !== 401, {
    intervalMs: 25,
    description: `the token of user ${userId} to authenticate`,
  });
  return caller;
}

export function callerFor(app: TestApp, userId: string, token: string): Caller {
  return {
    userId,
    token,
    call(method, path, body, headers = {}) {
      const isForm = body instanceof FormData;
      return fetch(`${app.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
    },
  };
}
