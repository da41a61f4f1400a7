import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CodePoints, MultiLine } from '../../../../platform/http/validation';
import { REVIEW_BODY_MAX } from '../../domain/review.decider';

export class PostReviewDto {
  @IsInt()
  @Min(1)
  @Max(5)
  rating: number;

  @IsOptional()
  @IsString()
  @CodePoints(0, REVIEW_BODY_MAX)
  @MultiLine()
  body?: string;
}
