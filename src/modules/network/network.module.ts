import { Module } from '@nestjs/common';
import { OutboundGuard } from '../../platform/outbound/outbound-guard';
import { CatalogModule } from '../catalog/catalog.module';
import { WalletModule } from '../wallet/wallet.module';
import { ServiceClient } from './clients/service-client';
import { CallLedger } from './commands/call-ledger';
import { CallServiceHandler } from './commands/call-service/call-service.handler';
import { ProbeServiceHandler } from './commands/probe-service/probe-service.handler';
import { ResolveServiceCallHandler } from './commands/resolve-service-call/resolve-service-call.handler';
import { ServicesController } from './http/services.controller';
import { NetworkController } from './http/network.controller';
import { CloseSessionHandler, OpenSessionHandler, SendMessageHandler } from './commands/session-handlers';
import {
  GetSessionHandler,
  InboxHandler,
  ListMessagesHandler,
  ListServicesHandler,
  ServiceHealthHandler,
} from './queries/network-queries.handler';
import { NetworkProjection } from './read-models/network.projection';
import { ServiceDirectory } from './read-models/service-directory';
import './events'; // declares the module's event types before anything appends them

const controllers = [ServicesController, NetworkController];
const commandHandlers = [
  CallServiceHandler,
  ResolveServiceCallHandler,
  ProbeServiceHandler,
  OpenSessionHandler,
  SendMessageHandler,
  CloseSessionHandler,
];
const queryHandlers = [GetSessionHandler, ListMessagesHandler, InboxHandler, ListServicesHandler, ServiceHealthHandler];
const projections = [NetworkProjection];
const services = [OutboundGuard, ServiceClient, CallLedger, ServiceDirectory];

/** The agent network: live services called through real protocols, metered against wallets; sessions and messages. */
@Module({
  imports: [WalletModule, CatalogModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...services],
  exports: [CallLedger, ServiceClient],
})
export class NetworkModule {}
