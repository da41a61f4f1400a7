import { PageQueryDto } from '../../../../platform/http/page-query.dto';

/** Reviews are listed newest first, 20 a page by default. */
export class ReviewPageDto extends PageQueryDto {}
