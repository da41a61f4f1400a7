import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Throttle } from '../../../platform/http/rate-limit';
import { ApproveDeviceCodeDto, PollDeviceCodeDto } from '../commands/device-authorization/device-authorization.dto';
import { DeviceAuthorizationService } from '../commands/device-authorization/device-authorization.service';
import { AnyToken, CurrentPrincipal, Principal, Public } from '../../../platform/http/access';

class DeviceStart {
  @ApiProperty() deviceCode: string;
  @ApiProperty({ example: 'BCDFGHJK' }) userCode: string;
  @ApiProperty() verificationUri: string;
  @ApiProperty({ example: 900 }) expiresIn: number;
  @ApiProperty({ example: 5 }) interval: number;
}

class DevicePollResponse {
  @ApiProperty({ enum: ['authorization_pending', 'expired', 'approved'] }) status: string;
  @ApiProperty({ required: false, description: 'Only with approved, and only once' }) token?: string;
  @ApiProperty({ required: false, example: 'Bearer' }) tokenType?: string;
  @ApiProperty({ required: false, description: 'Seconds until the token expires' }) expiresIn?: number;
}

class Ok {
  @ApiProperty({ example: true }) ok: true;
}

/**
 * Sign-in for CLIs and agents (RFC 8628). Polling is limited per client address
 * to about one request per interval (429 past it); approving is limited more
 * tightly, since user codes are short enough to guess at.
 */
@ApiTags('auth')
@Controller('v1/auth/device')
export class DeviceController {
  constructor(private readonly devices: DeviceAuthorizationService) {}

  @Post('start')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ type: DeviceStart })
  start(): Promise<DeviceStart> {
    return this.devices.start();
  }

  @Post('poll')
  @Public()
  @HttpCode(200)
  @Throttle({ max: 30, timeWindow: 60_000 })
  @ApiOkResponse({ type: DevicePollResponse })
  poll(@Body() body: PollDeviceCodeDto): Promise<DevicePollResponse> {
    return this.devices.poll(body.deviceCode);
  }

  @Post('approve')
  @AnyToken()
  @ApiBearerAuth()
  @HttpCode(200)
  @Throttle({ max: 10, timeWindow: 60_000 })
  @ApiOkResponse({ type: Ok })
  async approve(@CurrentPrincipal() principal: Principal, @Body() body: ApproveDeviceCodeDto): Promise<Ok> {
    await this.devices.approve(body.userCode, principal.userId);
    return { ok: true };
  }
}
