import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import pino from 'pino';
import { AppModule } from './app.module';
import { resolveInfrastructure } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';
import { IssuedToken, IssueTokenCommand } from './modules/auth/commands/issue-token/issue-token.command';
import { Scope, SCOPES } from './modules/auth/domain/api-token';
import { EnsureUserCommand } from './modules/users/commands/ensure-user/ensure-user.command';
import { RegisterUserCommand } from './modules/users/commands/register-user/register-user.command';
import { withEventContext } from './event-store/event-context';
import { trackWrites } from './event-store/write-tracker';
import { ProjectionWaiter } from './projections/read-your-writes';
import { DomainError } from './platform/errors/domain-error';
import { createRootLogger, PinoNestLogger } from './platform/http/logger';

const USAGE = `usage: npm run --silent admin -- user create --email E [--name N]
       npm run --silent admin -- token create --email E [--scopes read,purchase,download,sell] [--name N] [--expires-in-days D]

Prints only the user id or the token on stdout, so TOKEN=$(npm run --silent admin -- token create --email a@example.com) works.`;

/**
 * Operator commands: the first user and token before any web sign-in exists.
 * They go through the same services and commands as the API, never straight to tables.
 */
async function main(argv: string[]): Promise<number> {
  const [noun, verb, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    strict: true,
  });
  if (!values.email || verb !== 'create' || (noun !== 'user' && noun !== 'token')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  // Logs go to stderr: stdout carries only the answer.
  const logger = new PinoNestLogger(createRootLogger(config, pino.destination(2)));
  Logger.overrideLogger(logger);
  const { config: resolved, release } = await resolveInfrastructure({ ...config, runProcessors: false });
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(resolved), { logger });
  try {
    const commands = context.get(CommandBus);
    // Events an operator command appends share one correlation id, with no acting user.
    const correlation = { correlationId: randomUUID() };
    const { result, lastPosition, eventTypes } = await trackWrites(() =>
      withEventContext(correlation, async (): Promise<string> => {
        if (noun === 'user') return commands.execute(new RegisterUserCommand(values.email!, values.name ?? null));
        const scopes = (values.scopes ?? SCOPES.join(',')).split(',').map((s) => s.trim()) as Scope[];
        const days = values['expires-in-days'] === undefined ? null : Number(values['expires-in-days']);
        const userId: string = await commands.execute(new EnsureUserCommand(values.email!));
        const issued: IssuedToken = await commands.execute(
          new IssueTokenCommand(userId, values.name ?? 'admin', scopes, 'admin', { expiresInDays: days }),
        );
        return issued.token;
      }),
    );
    // A script uses the answer on its next line: wait, bounded, until a running server's projections have applied it.
    if (lastPosition && !(await context.get(ProjectionWaiter).waitForRunningProjections(lastPosition, eventTypes))) {
      console.error('warning: the running server has not applied this yet; it will shortly');
    }
    console.log(result);
    return 0;
  } finally {
    await context.close();
    await release();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    if (error instanceof ConfigError || error instanceof DomainError) console.error(error.message);
    else console.error(error);
    process.exit(error instanceof DomainError ? 2 : 1);
  });
