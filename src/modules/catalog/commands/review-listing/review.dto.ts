import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../../../platform/http/pagination';
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

/** Reviews are listed newest first, 20 a page by default. */
export class ReviewPageDto extends PageQueryDto {}
