import { IsString, Length } from 'class-validator';
import { REVIEW_BODY_MAX } from '../../domain/review.decider';

export class ReplyDto {
  @IsString()
  @Length(1, REVIEW_BODY_MAX)
  body: string;
}
