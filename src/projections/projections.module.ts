import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DeadLetters } from './dead-letters';
import { ProcessorHealth } from './processor-health';
import { ProcessorsService } from './processors.service';
import { ProjectionWaiter, ReadYourWritesInterceptor } from './read-your-writes';

/** Runs every projection and process manager; read models themselves live with their modules. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ProcessorsService, ProjectionWaiter, ReadYourWritesInterceptor, ProcessorHealth, DeadLetters],
  exports: [ProcessorsService, ProjectionWaiter, ReadYourWritesInterceptor, ProcessorHealth, DeadLetters],
})
export class ProjectionsModule {}
