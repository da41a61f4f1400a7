import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { CodePoints, Optional, SingleLine } from '../../../../platform/http/validation';
import { CLIENT_NAME_MAX } from '../../domain/device-code.decider';

export class StartDeviceAuthorizationDto {
  /**
   * What the client calls itself, e.g. `svc 1.4.0 on build-box`: the device page shows it (as the client's own
   * claim) beside the code, so the person approving sees which client asks. One line of 1-64 characters. Omitted: an
   * unnamed client.
   */
  @ApiPropertyOptional({ minLength: 1, maxLength: CLIENT_NAME_MAX, example: 'svc 1.4.0 on build-box' })
  @Optional()
  @IsString()
  @CodePoints(1, CLIENT_NAME_MAX)
  @SingleLine()
  @Matches(/\S/, { message: 'clientName must not be blank' })
  clientName?: string;
}
