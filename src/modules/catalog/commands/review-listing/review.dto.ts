import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
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

export class VoteDto {
  @IsBoolean()
  helpful: boolean;
}

export class ReplyDto {
  @IsString()
  @Length(1, REVIEW_BODY_MAX)
  body: string;
}

export class ReviewPageDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  per_page?: number;
}
