import { ApiProperty } from '@nestjs/swagger';

export class ReviewReply {
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class Review {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ minimum: 1, maximum: 5 }) rating: number;
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty() helpfulCount: number;
  @ApiProperty({ type: ReviewReply, nullable: true }) reply: ReviewReply | null;
}

export class Reviews {
  /** Newest first. */
  @ApiProperty({ type: [Review] }) reviews: Review[];
  /** The average rating, 0 without reviews. */
  @ApiProperty() rating: number;
  @ApiProperty() ratingCount: number;
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() perPage: number;
}

export class PostedReview {
  @ApiProperty({ type: Review }) review: Review;
}
