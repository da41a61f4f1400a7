import { ApiProperty } from '@nestjs/swagger';

/** The CLI asks whether its sign-in was approved; the first poll after approval receives the token, once. */
export class PollDeviceCodeCommand {
  constructor(readonly deviceCode: string) {}
}

export type DevicePoll =
  | { status: 'authorization_pending' | 'expired' | 'denied' }
  | { status: 'approved'; token: string; tokenType: 'Bearer'; expiresIn: number };

export class DevicePollResponse {
  @ApiProperty({
    enum: ['authorization_pending', 'expired', 'denied', 'approved'],
    description: '`denied` and `expired` are final: start a new sign-in',
  })
  status: string;
  @ApiProperty({ required: false, description: 'Only with approved, and only once' }) token?: string;
  @ApiProperty({ required: false, example: 'Bearer' }) tokenType?: string;
  @ApiProperty({ required: false, description: 'Seconds until the token expires' }) expiresIn?: number;
}
