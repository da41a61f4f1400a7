import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../platform/http/access';
import { GetPublicSigningKeyQuery } from '../queries/get-public-signing-key/get-public-signing-key.query';
import { PublicSigningKey } from './signing-keys.responses';

/** Public keys are public: clients (the `svc` CLI) verify release signatures against the active one. */
@ApiTags('vendor')
@Public()
@Controller('v1/vendors/:vendor/signing-key')
export class PublicSigningKeyController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: PublicSigningKey })
  get(@Param('vendor') vendor: string): Promise<PublicSigningKey> {
    return this.queries.execute(new GetPublicSigningKeyQuery(vendor));
  }
}
