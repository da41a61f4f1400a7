import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { REVIEW_BODY_MAX } from '../../domain/review.decider';

export class PostReviewDto {
  @IsInt()
  @Min(1)
  @Max(5)
  rating: number;

  @IsOptional()
  @IsString()
  @MaxLength(REVIEW_BODY_MAX)
  body?: string;
}
