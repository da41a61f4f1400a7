import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, OwnerOnly, Principal, Public } from '../../../platform/http/access';
import { Throttle } from '../../../platform/http/rate-limit';
import { OK, Ok } from '../../../platform/http/responses';
import { ApproveDeviceCodeCommand } from '../commands/approve-device-code/approve-device-code.command';
import { ApproveDeviceCodeDto } from '../commands/approve-device-code/approve-device-code.dto';
import { DenyDeviceCodeCommand } from '../commands/deny-device-code/deny-device-code.command';
import { DenyDeviceCodeDto } from '../commands/deny-device-code/deny-device-code.dto';
import { DevicePollResponse, PollDeviceCodeCommand } from '../commands/poll-device-code/poll-device-code.command';
import { PollDeviceCodeDto } from '../commands/poll-device-code/poll-device-code.dto';
import { StartDeviceAuthorizationDto } from '../commands/start-device-authorization/start-device-authorization.dto';
import {
  DeviceAuthorization,
  StartDeviceAuthorizationCommand,
} from '../commands/start-device-authorization/start-device-authorization.command';

/**
 * Sign-in for CLIs and agents (RFC 8628). Polling is limited per client address
 * to about one request per interval (429 past it); approving is limited more
 * tightly, and so is denying, since user codes are short enough to guess at.
 */
@ApiTags('auth')
@Controller('v1/auth/device')
export class DeviceController {
  constructor(private readonly commands: CommandBus) {}

  @Post('start')
  @Public()
  @HttpCode(200)
  // The body is optional: a client that names itself nothing may send none at all.
  @ApiBody({ type: StartDeviceAuthorizationDto, required: false })
  @ApiOkResponse({ type: DeviceAuthorization })
  start(@Body() body: StartDeviceAuthorizationDto): Promise<DeviceAuthorization> {
    return this.commands.execute(new StartDeviceAuthorizationCommand(body.clientName ?? null));
  }

  @Post('poll')
  @Public()
  @HttpCode(200)
  @Throttle({ max: 30, timeWindow: 60_000 })
  @ApiOkResponse({ type: DevicePollResponse })
  poll(@Body() body: PollDeviceCodeDto): Promise<DevicePollResponse> {
    return this.commands.execute(new PollDeviceCodeCommand(body.deviceCode));
  }

  /** A sign-in issues a token outside any spend policy, so a token bound to one may not approve it. */
  @Post('approve')
  @AnyToken()
  @OwnerOnly('approveSignIns')
  @ApiForbiddenResponse({ description: 'The token is bound to a spend policy' })
  @ApiBearerAuth()
  @HttpCode(200)
  @Throttle({ max: 10, timeWindow: 60_000 })
  @ApiOkResponse({ type: Ok })
  async approve(@CurrentPrincipal() principal: Principal, @Body() body: ApproveDeviceCodeDto): Promise<Ok> {
    await this.commands.execute(new ApproveDeviceCodeCommand(body.userCode, principal));
    return OK;
  }

  /** Refuses the sign-in: final, the code can no longer be approved and polls answer `denied`. */
  @Post('deny')
  @AnyToken()
  @ApiBearerAuth()
  @HttpCode(200)
  @Throttle({ max: 10, timeWindow: 60_000 })
  @ApiOkResponse({ type: Ok })
  async deny(@CurrentPrincipal() principal: Principal, @Body() body: DenyDeviceCodeDto): Promise<Ok> {
    await this.commands.execute(new DenyDeviceCodeCommand(body.userCode, principal.userId));
    return OK;
  }
}
