import { IsString, Length } from 'class-validator';

export class DenyDeviceCodeDto {
  /** The 8-character code the CLI shows; case and dashes do not matter. */
  @IsString()
  @Length(1, 20)
  userCode: string;
}
