import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { OK, Ok } from '../../../platform/http/responses';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { CreateTokenDto } from '../commands/create-token/create-token.dto';
import { CreatedToken, CreateTokenCommand } from '../commands/create-token/create-token.command';
import { RevokeTokenCommand } from '../commands/revoke-token/revoke-token.command';
import { ListTokensQuery, TokenListItem } from '../queries/list-tokens/list-tokens.query';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';

export class TokenList {
  @ApiProperty({ type: [TokenListItem] }) tokens: TokenListItem[];
}

@ApiTags('auth')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/auth')
export class TokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('tokens')
  @ApiOkResponse({ type: TokenList, description: "The caller's active tokens, newest first" })
  async list(@CurrentPrincipal() principal: Principal): Promise<TokenList> {
    return { tokens: await this.queries.execute(new ListTokensQuery(principal.userId)) };
  }

  /** Creates a restricted token: its scopes must be a subset of the calling token's. */
  @Post('tokens')
  @ApiCreatedResponse({ type: CreatedToken })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTokenDto): Promise<CreatedToken> {
    return this.commands.execute(new CreateTokenCommand(principal, body));
  }

  @Post('token/revoke')
  @HttpCode(200)
  @ApiOkResponse({ type: Ok, description: 'Revokes the token presented with this request' })
  async revokePresented(@CurrentPrincipal() principal: Principal): Promise<Ok> {
    await this.commands.execute(new RevokeTokenCommand(principal.tokenId, principal.userId));
    return OK;
  }

  @Delete('tokens/:id')
  @ApiOkResponse({ type: Ok })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Ok> {
    // Anything that is not one of the caller's tokens, malformed ids included, is simply not found.
    if (!isUuid(id)) throw new DomainError('not_found', 'Token not found');
    await this.commands.execute(new RevokeTokenCommand(id, principal.userId));
    return OK;
  }
}
