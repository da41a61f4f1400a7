import { IsBoolean } from 'class-validator';

export class VoteDto {
  @IsBoolean()
  helpful: boolean;
}
