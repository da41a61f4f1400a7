import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { CloseSessionCommand } from '../commands/close-session/close-session.command';
import { OpenSessionCommand } from '../commands/open-session/open-session.command';
import { OpenSessionDto } from '../commands/open-session/open-session.dto';
import { SendMessageCommand } from '../commands/send-message/send-message.command';
import { SendMessageDto } from '../commands/send-message/send-message.dto';
import { GetSessionQuery, InboxQuery, ListMessagesQuery, ServiceHealthQuery } from '../queries/network.queries';
import { InboxQueryDto, MessagesQueryDto } from '../queries/network-query.dto';
import {
  ClosedSession,
  Inbox,
  Messages,
  OpenedSessionResult,
  SentMessageResult,
  ServiceHealthList,
  SessionDetailResult,
} from './network.responses';

@ApiTags('network')
@ApiBearerAuth()
@Controller('v1/network')
export class NetworkController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Opens a session with a listing's live service (404 when the listing has none). */
  @Post('sessions')
  @RequireScope('purchase')
  @ApiCreatedResponse({ type: OpenedSessionResult })
  @ApiNotFoundResponse({ description: 'No live service at vendor/slug' })
  @ApiUnprocessableEntityResponse({ description: 'A settlement method not supported yet (pay_mpp, pay_acp)' })
  open(@CurrentPrincipal() principal: Principal, @Body() body: OpenSessionDto): Promise<OpenedSessionResult> {
    return this.commands.execute(
      new OpenSessionCommand(principal.userId, body.vendor, body.slug, body.intent, body.context, body.settlementMethod),
    ) as Promise<OpenedSessionResult>;
  }

  /** The buyer's or the vendor's view of the session; 404 to anyone else. */
  @Get('sessions/:id')
  @AnyToken()
  @ApiOkResponse({ type: SessionDetailResult })
  @ApiNotFoundResponse({ description: 'Not a session of yours' })
  session(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SessionDetailResult> {
    return this.queries.execute(new GetSessionQuery(principal.userId, id)) as Promise<SessionDetailResult>;
  }

  /**
   * The buyer sends a typed message. It is stored, then delivered to a service that takes messages (`https`:
   * a POST of {sessionId, message}; JSON-RPC: `session/message`), whose JSON replies come back as `responses`;
   * for other protocols it waits in the vendor's inbox.
   */
  @Post('sessions/:id/messages')
  @RequireScope('purchase')
  @HttpCode(200)
  @ApiOkResponse({ type: SentMessageResult })
  @ApiNotFoundResponse({ description: 'Not a session of yours' })
  @ApiForbiddenResponse({ description: 'The vendor does not send messages here' })
  @ApiConflictResponse({ description: 'The session is closed' })
  send(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: SendMessageDto,
  ): Promise<SentMessageResult> {
    return this.commands.execute(
      new SendMessageCommand(principal.userId, id, { type: body.type, correlationId: body.correlationId, payload: body.payload }),
    ) as Promise<SentMessageResult>;
  }

  /** Oldest first; `after` a message id pages on. */
  @Get('sessions/:id/messages')
  @AnyToken()
  @ApiOkResponse({ type: Messages })
  @ApiNotFoundResponse({ description: 'Not a session of yours' })
  messages(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: MessagesQueryDto,
  ): Promise<Messages> {
    return this.queries.execute(new ListMessagesQuery(principal.userId, id, query.limit ?? 50, query.after)) as Promise<Messages>;
  }

  /** The buyer or the vendor closes the session; closing it again answers the same. */
  @Post('sessions/:id/close')
  @RequireScope('purchase')
  @HttpCode(200)
  @ApiOkResponse({ type: ClosedSession })
  @ApiNotFoundResponse({ description: 'Not a session of yours' })
  close(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ClosedSession> {
    return this.commands.execute(new CloseSessionCommand(principal.userId, id)) as Promise<ClosedSession>;
  }

  /** Open sessions on the vendor's listings, newest first. */
  @Get('inbox')
  @RequireScope('sell')
  @ApiOkResponse({ type: Inbox })
  inbox(@CurrentPrincipal() principal: Principal, @Query() query: InboxQueryDto): Promise<Inbox> {
    return this.queries.execute(new InboxQuery(principal.userId, query.limit ?? 50)) as Promise<Inbox>;
  }

  /** The vendor's listings with a service, each with its latest probe. */
  @Get('service-health')
  @RequireScope('sell')
  @ApiOkResponse({ type: ServiceHealthList })
  serviceHealth(@CurrentPrincipal() principal: Principal): Promise<ServiceHealthList> {
    return this.queries.execute(new ServiceHealthQuery(principal.userId)) as Promise<ServiceHealthList>;
  }
}
