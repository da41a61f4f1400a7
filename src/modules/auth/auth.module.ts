import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IssueTokenHandler } from './commands/issue-token/issue-token.handler';
import { RevokeTokenHandler } from './commands/revoke-token/revoke-token.handler';
import { TokenGuard } from './http/authentication';
import { ApiTokensProjection } from './read-models/api-tokens.projection';

const commandHandlers = [IssueTokenHandler, RevokeTokenHandler];
const projections = [ApiTokensProjection];

/** Sign-in for CLIs and agents: API tokens and the guard every route passes. */
@Module({
  providers: [...commandHandlers, ...projections, { provide: APP_GUARD, useClass: TokenGuard }],
})
export class AuthModule {}
