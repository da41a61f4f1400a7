import { Body, Controller, Delete, Get, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';
import { OK, Ok } from '../../../platform/http/responses';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { ChangeProfileCommand } from '../commands/change-profile/change-profile.command';
import { ChangeProfileDto } from '../commands/change-profile/change-profile.dto';
import { DeleteUserCommand } from '../commands/delete-user/delete-user.command';
import { GetProfileQuery, UserProfile } from '../queries/get-profile/get-profile.query';

export class UserResponse {
  @ApiProperty({ type: UserProfile }) user: UserProfile;
}

@ApiTags('users')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/users/me')
export class UsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @ApiOkResponse({ type: UserResponse })
  async get(@CurrentPrincipal() principal: Principal): Promise<UserResponse> {
    return { user: await this.queries.execute(new GetProfileQuery(principal.userId)) };
  }

  @Patch()
  @ApiOkResponse({ type: UserResponse })
  async update(@CurrentPrincipal() principal: Principal, @Body() body: ChangeProfileDto): Promise<UserResponse> {
    await this.commands.execute(new ChangeProfileCommand(principal.userId, { name: body.name, avatarUrl: body.avatarUrl }));
    await this.waiter.catchUpWithThisRequest();
    return this.get(principal);
  }

  @Delete()
  @ApiOkResponse({ type: Ok, description: 'Anonymizes the account and revokes every token; irreversible' })
  async remove(@CurrentPrincipal() principal: Principal): Promise<Ok> {
    await this.commands.execute(new DeleteUserCommand(principal.userId));
    // The answer waits, bounded, for the deletion saga too: tokens revoked, email freed, personal data shredded.
    await this.waiter.catchUpWithThisRequest({ includeSagas: true });
    return OK;
  }
}
