import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { EventStore } from '../event-store/event-store';
import { DeviceCodesReader } from '../modules/auth/read-models/device-codes.reader';
import { ProjectionWaiter } from '../projections/read-your-writes';
import { WebSessions } from './sessions/web-sessions';
import { WebSessionsProjection } from './sessions/web-sessions.projection';
import { WebSessionsSweeper } from './sessions/web-sessions.sweeper';
import { registerWebApp } from './web-app';

/** The web app (see web-app.ts): its pages are Fastify routes, registered as the app initializes. */
@Module({ providers: [WebSessions, WebSessionsProjection, WebSessionsSweeper, DeviceCodesReader] })
export class WebModule implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sessions: WebSessions,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly store: EventStore,
    private readonly deviceCodes: DeviceCodesReader,
    private readonly waiter: ProjectionWaiter,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  // After Nest has set its error handlers on the root instance, so the API keeps its own.
  // Operator commands (ledger, admin) boot an application context with no HTTP server: nothing to serve.
  async onApplicationBootstrap(): Promise<void> {
    if (!this.adapterHost.httpAdapter) return;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await registerWebApp(fastify, {
      config: this.config,
      sessions: this.sessions,
      commands: this.commands,
      queries: this.queries,
      store: this.store,
      deviceCodes: this.deviceCodes,
      waiter: this.waiter,
    } as Parameters<typeof registerWebApp>[1]);
  }
}
