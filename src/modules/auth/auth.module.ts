import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DeviceAuthorizationService } from './commands/device-authorization/device-authorization.service';
import { IssueTokenHandler } from './commands/issue-token/issue-token.handler';
import { RevokeTokenHandler } from './commands/revoke-token/revoke-token.handler';
import { TokenGuard } from './http/authentication';
import { DeviceController } from './http/device.controller';
import { TokenUsage } from './http/token-usage';
import { TokensController } from './http/tokens.controller';
import { ListTokensHandler } from './queries/list-tokens/list-tokens.handler';
import { ApiTokensProjection } from './read-models/api-tokens.projection';
import { AuthAuditProjection } from './read-models/auth-audit.projection';
import { DeviceCodesProjection } from './read-models/device-codes.projection';

const commandHandlers = [IssueTokenHandler, RevokeTokenHandler];
const queryHandlers = [ListTokensHandler];
const projections = [ApiTokensProjection, DeviceCodesProjection, AuthAuditProjection];
const services = [DeviceAuthorizationService, TokenUsage];

/** Sign-in for CLIs and agents: the device flow, API tokens, and the guard every route passes. */
@Module({
  controllers: [TokensController, DeviceController],
  providers: [...services, ...commandHandlers, ...queryHandlers, ...projections, { provide: APP_GUARD, useClass: TokenGuard }],
})
export class AuthModule {}
