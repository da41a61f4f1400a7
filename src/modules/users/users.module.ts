import { Module } from '@nestjs/common';
import { ChangeProfileHandler } from './commands/change-profile/change-profile.handler';
import { DeleteUserHandler } from './commands/delete-user/delete-user.handler';
import { EnsureUserHandler } from './commands/ensure-user/ensure-user.handler';
import { RegisterUserHandler } from './commands/register-user/register-user.handler';
import { ReleaseEmailHandler } from './commands/release-email/release-email.handler';
import { ShredPersonalDataHandler } from './commands/shred-personal-data/shred-personal-data.handler';
import { UsersController } from './http/users.controller';
import { GetProfileHandler } from './queries/get-profile/get-profile.handler';
import { UsersProjection } from './read-models/users.projection';
import './events'; // declares the module's event types before anything appends them

const commandHandlers = [
  RegisterUserHandler,
  EnsureUserHandler,
  ChangeProfileHandler,
  DeleteUserHandler,
  ReleaseEmailHandler,
  ShredPersonalDataHandler,
];
const queryHandlers = [GetProfileHandler];
const projections = [UsersProjection];

/** User accounts: registration, profile, deletion with crypto-shredding. */
@Module({
  controllers: [UsersController],
  providers: [...commandHandlers, ...queryHandlers, ...projections],
})
export class UsersModule {}
