import { IsString, Length } from 'class-validator';

export class PollDeviceCodeDto {
  /** The deviceCode returned by /v1/auth/device/start. */
  @IsString()
  @Length(1, 200)
  deviceCode: string;
}

export class ApproveDeviceCodeDto {
  /** The 8-character code the CLI shows; case and dashes do not matter. */
  @IsString()
  @Length(1, 20)
  userCode: string;
}
