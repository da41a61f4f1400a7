import { IsString, Length } from 'class-validator';

export class PollDeviceCodeDto {
  /** The deviceCode returned by /v1/auth/device/start. */
  @IsString()
  @Length(1, 200)
  deviceCode: string;
}
