import { IsInt, IsString, Max, Min } from 'class-validator';
import { CodePoints, MultiLine, Optional } from '../../../../platform/http/validation';
import { REVIEW_BODY_MAX } from '../../domain/review.decider';

export class PostReviewDto {
  @IsInt()
  @Min(1)
  @Max(5)
  rating: number;

  /** Omitted: an empty body. Null is a 400. */
  @Optional()
  @IsString()
  @CodePoints(0, REVIEW_BODY_MAX)
  @MultiLine()
  body?: string;
}
