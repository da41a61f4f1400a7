import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Authenticator, TokenGuard } from '../../platform/http/access';
import { ApproveDeviceCodeHandler } from './commands/approve-device-code/approve-device-code.handler';
import { CreateTokenHandler } from './commands/create-token/create-token.handler';
import { DenyDeviceCodeHandler } from './commands/deny-device-code/deny-device-code.handler';
import { IssueTokenHandler } from './commands/issue-token/issue-token.handler';
import { PollDeviceCodeHandler } from './commands/poll-device-code/poll-device-code.handler';
import { TokenUsage } from './commands/record-token-use/token-usage';
import { RevokeTokenHandler } from './commands/revoke-token/revoke-token.handler';
import { StartDeviceAuthorizationHandler } from './commands/start-device-authorization/start-device-authorization.handler';
import { DeviceController } from './http/device.controller';
import { TokensController } from './http/tokens.controller';
import { ApiTokenAuthenticator } from './queries/authenticate-caller/api-token.authenticator';
import { ListTokensHandler } from './queries/list-tokens/list-tokens.handler';
import { ApiTokensProjection } from './read-models/api-tokens.projection';
import { ApiTokensReader } from './read-models/api-tokens.reader';
import { AuthAuditProjection } from './read-models/auth-audit.projection';
import { DeviceCodesProjection } from './read-models/device-codes.projection';
import { DeviceCodesReader } from './read-models/device-codes.reader';
import './events'; // declares the module's event types before anything appends them

const commandHandlers = [
  IssueTokenHandler,
  CreateTokenHandler,
  RevokeTokenHandler,
  StartDeviceAuthorizationHandler,
  ApproveDeviceCodeHandler,
  DenyDeviceCodeHandler,
  PollDeviceCodeHandler,
];
const queryHandlers = [ListTokensHandler];
const projections = [ApiTokensProjection, DeviceCodesProjection, AuthAuditProjection];
const readers = [ApiTokensReader, DeviceCodesReader];
const authentication = [
  TokenUsage,
  { provide: Authenticator, useClass: ApiTokenAuthenticator },
  { provide: APP_GUARD, useClass: TokenGuard },
];

/** Sign-in for CLIs and agents: the device flow, API tokens, and the authenticator behind the guard every route passes. */
@Module({
  controllers: [TokensController, DeviceController],
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...readers, ...authentication],
})
export class AuthModule {}
