import { IsUUID } from 'class-validator';

export class IssueDownloadDto {
  /** A published release of a listing you own (or of a free listing). */
  @IsUUID('all', { message: 'releaseId must be a UUID' })
  releaseId: string;
}
