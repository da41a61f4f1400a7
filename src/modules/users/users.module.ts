import { Module } from '@nestjs/common';
import { RegisterUserHandler } from './commands/register-user.command';
import { UsersService } from './commands/users.service';
import { UsersController } from './http/users.controller';
import { UsersProjection } from './read-models/users.projection';
import './events'; // declares the module's event types before anything appends them

/** User accounts: registration, profile, deletion with crypto-shredding. */
@Module({
  controllers: [UsersController],
  providers: [UsersService, RegisterUserHandler, UsersProjection],
  exports: [UsersService],
})
export class UsersModule {}
