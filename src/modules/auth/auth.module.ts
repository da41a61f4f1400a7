import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IssueTokenHandler } from './commands/issue-token/issue-token.handler';
import { RevokeTokenHandler } from './commands/revoke-token/revoke-token.handler';
import { TokenGuard } from './http/authentication';
import { DeviceAuthorizationService } from './commands/device-authorization/device-authorization.service';
import { DeviceController } from './http/device.controller';
import { TokensController } from './http/tokens.controller';
import { DeviceCodesProjection } from './read-models/device-codes.projection';
import { ListTokensHandler } from './queries/list-tokens/list-tokens.handler';
import { ApiTokensProjection } from './read-models/api-tokens.projection';

const commandHandlers = [IssueTokenHandler, RevokeTokenHandler];
const queryHandlers = [ListTokensHandler];
const projections = [ApiTokensProjection, DeviceCodesProjection];

/** Sign-in for CLIs and agents: API tokens and the guard every route passes. */
@Module({
  controllers: [TokensController, DeviceController],
  providers: [
    DeviceAuthorizationService,
    ...commandHandlers,
    ...queryHandlers,
    ...projections,
    { provide: APP_GUARD, useClass: TokenGuard },
  ],
})
export class AuthModule {}
