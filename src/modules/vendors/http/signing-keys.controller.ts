import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { OK, Ok } from '../../../platform/http/responses';
import { RegisterSigningKeyCommand } from '../commands/register-signing-key/register-signing-key.command';
import { RegisterSigningKeyDto } from '../commands/register-signing-key/register-signing-key.dto';
import { RevokeSigningKeyCommand } from '../commands/revoke-signing-key/revoke-signing-key.command';
import { ListSigningKeysQuery } from '../queries/list-signing-keys/list-signing-keys.query';
import { SigningKeyRegistered, SigningKeys } from './signing-keys.responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/keys')
export class SigningKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOkResponse({ type: SigningKeys })
  list(@CurrentPrincipal() principal: Principal): Promise<SigningKeys> {
    return this.queries.execute(new ListSigningKeysQuery(principal.userId));
  }

  /** The first key is a `register`; a later one a `rotate`, after which the old key no longer verifies uploads. */
  @Post()
  @ApiCreatedResponse({ type: SigningKeyRegistered })
  register(@CurrentPrincipal() principal: Principal, @Body() body: RegisterSigningKeyDto): Promise<SigningKeyRegistered> {
    return this.commands.execute(new RegisterSigningKeyCommand(principal.userId, body.publicKey, body.fingerprint));
  }

  @Delete(':fingerprint')
  @ApiOkResponse({ type: Ok })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('fingerprint') fingerprint: string): Promise<Ok> {
    await this.commands.execute(new RevokeSigningKeyCommand(principal.userId, fingerprint));
    return OK;
  }
}
