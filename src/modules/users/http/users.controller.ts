import { Body, Controller, Delete, Get, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { UsersService } from '../commands/users.service';
import { UpdateProfileDto } from './update-profile.dto';

class User {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) avatarUrl: string | null;
  @ApiProperty() emailVerified: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

class UserResponse {
  @ApiProperty({ type: User }) user: User;
}

class Ok {
  @ApiProperty({ example: true }) ok: true;
}

@ApiTags('users')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/users/me')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly dataSource: DataSource,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @ApiOkResponse({ type: UserResponse })
  get(@CurrentPrincipal() principal: Principal): Promise<UserResponse> {
    return this.read(principal.userId);
  }

  @Patch()
  @ApiOkResponse({ type: UserResponse })
  async update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateProfileDto): Promise<UserResponse> {
    await this.users.changeProfile(principal.userId, { name: body.name, avatarUrl: body.avatarUrl });
    await this.waiter.catchUpWithThisRequest();
    return this.read(principal.userId);
  }

  @Delete()
  @ApiOkResponse({ type: Ok, description: 'Anonymizes the account and revokes every token; irreversible' })
  async remove(@CurrentPrincipal() principal: Principal): Promise<Ok> {
    await this.users.delete(principal.userId);
    return { ok: true };
  }

  private async read(userId: string): Promise<UserResponse> {
    const [row] = await this.dataSource.query(
      'SELECT id, email, name, avatar_url, email_verified, created_at FROM users WHERE id = $1 AND deleted_at IS NULL',
      [userId],
    );
    if (!row) throw new DomainError('not_found', 'User not found');
    return {
      user: {
        id: row.id,
        email: row.email,
        name: row.name,
        avatarUrl: row.avatar_url,
        emailVerified: row.email_verified,
        createdAt: new Date(row.created_at).toISOString(),
      },
    };
  }
}
