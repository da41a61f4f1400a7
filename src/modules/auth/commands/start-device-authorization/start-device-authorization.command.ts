import { ApiProperty } from '@nestjs/swagger';

/** RFC 8628 step one: a device code for the CLI and a short user code for the person. */
export class StartDeviceAuthorizationCommand {
  constructor(
    /** What the client calls itself; null when it gave no name. */
    readonly clientName: string | null = null,
  ) {}
}

export class DeviceAuthorization {
  @ApiProperty() deviceCode: string;
  @ApiProperty({ example: 'BCDFGHJK' }) userCode: string;
  @ApiProperty() verificationUri: string;
  @ApiProperty({ example: 900 }) expiresIn: number;
  @ApiProperty({ example: 5 }) interval: number;
}
