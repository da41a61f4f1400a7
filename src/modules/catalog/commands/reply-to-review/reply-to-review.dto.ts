import { IsString } from 'class-validator';
import { CodePoints, MultiLine } from '../../../../platform/http/validation';
import { REVIEW_BODY_MAX } from '../../domain/review.decider';

export class ReplyDto {
  @IsString()
  @CodePoints(1, REVIEW_BODY_MAX)
  @MultiLine()
  body: string;
}
