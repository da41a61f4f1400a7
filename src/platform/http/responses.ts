import { ApiProperty } from '@nestjs/swagger';

/** The body of a command that has nothing else to say. */
export class Ok {
  @ApiProperty({ example: true }) ok: true;
}

export const OK: Ok = { ok: true };
