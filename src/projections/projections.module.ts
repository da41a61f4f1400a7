import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ProcessorsService } from './processors.service';
import { ProjectionWaiter, ReadYourWritesInterceptor } from './read-your-writes';

/** Runs every projection and process manager; read models themselves live with their modules. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ProcessorsService, ProjectionWaiter, ReadYourWritesInterceptor],
  exports: [ProcessorsService, ProjectionWaiter, ReadYourWritesInterceptor],
})
export class ProjectionsModule {}
