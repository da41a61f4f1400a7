import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../platform/http/access';
import { AuditsParamsDto } from '../queries/list-audits/list-audits.dto';
import { ListAuditsQuery } from '../queries/list-audits/list-audits.query';
import { AuditsResponse } from './audits.responses';

/**
 * Public security audits: every published listing with the scan of its latest
 * uploaded release (a newer pending or failed upload shows), most installed
 * first, ties on the listing id. `status` filters on that scan.
 */
@ApiTags('audits')
@Public()
@Controller('v1/audits')
export class AuditsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: AuditsResponse })
  list(@Query() params: AuditsParamsDto): Promise<AuditsResponse> {
    return this.queries.execute(new ListAuditsQuery({ ...params }));
  }
}
