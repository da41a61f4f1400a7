import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Authenticator, TokenGuard } from '../../platform/http/access';
import { DeviceAuthorizationService } from './commands/device-authorization/device-authorization.service';
import { IssueTokenHandler } from './commands/issue-token/issue-token.handler';
import { RevokeTokenHandler } from './commands/revoke-token/revoke-token.handler';
import { DeviceController } from './http/device.controller';
import { TokenUsage } from './commands/record-token-use/token-usage';
import { ApiTokenAuthenticator } from './queries/authenticate-caller/api-token.authenticator';
import { ApiTokensReader } from './read-models/api-tokens.reader';
import { TokensController } from './http/tokens.controller';
import { ListTokensHandler } from './queries/list-tokens/list-tokens.handler';
import { ApiTokensProjection } from './read-models/api-tokens.projection';
import { AuthAuditProjection } from './read-models/auth-audit.projection';
import { DeviceCodesProjection } from './read-models/device-codes.projection';
import './events'; // declares the module's event types before anything appends them

const commandHandlers = [IssueTokenHandler, RevokeTokenHandler];
const queryHandlers = [ListTokensHandler];
const projections = [ApiTokensProjection, DeviceCodesProjection, AuthAuditProjection];
const services = [DeviceAuthorizationService, TokenUsage];
const readers = [ApiTokensReader];
const authentication = [
  { provide: Authenticator, useClass: ApiTokenAuthenticator },
  { provide: APP_GUARD, useClass: TokenGuard },
];

/** Sign-in for CLIs and agents: the device flow, API tokens, and the guard every route passes. */
@Module({
  controllers: [TokensController, DeviceController],
  providers: [...services, ...readers, ...commandHandlers, ...queryHandlers, ...projections, ...authentication],
})
export class AuthModule {}
