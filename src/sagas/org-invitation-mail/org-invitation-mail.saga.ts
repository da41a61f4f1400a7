import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { OrgEvents } from '../../modules/orgs/events';
import { Queues } from '../../platform/queue/queues';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';
import { ORG_INVITATION_MAIL_QUEUE, OrgInvitationMailJob } from './org-invitation-mail.process';

/**
 * An invitation was stored: queue its e-mail. The job id is the event's, so a
 * redelivered event queues nothing; the job carries ids only (no address, no
 * token), and the process reads the rest when it runs.
 */
@Injectable()
@AsProcessManager()
export class OrgInvitationMailSaga extends Saga {
  readonly name = 'org-invitation-mail';
  readonly eventTypes = [OrgEvents.OrgMemberInvited];

  constructor(commands: CommandBus, queues: Queues) {
    super(commands, queues);
  }

  react(event: RecordedEvent): Reaction {
    if (event.type !== OrgEvents.OrgMemberInvited) return nothing();
    const data: OrgInvitationMailJob = {
      orgId: String(event.data.orgId),
      invitationId: String(event.data.invitationId),
    };
    return {
      commands: [],
      jobs: [
        {
          queue: ORG_INVITATION_MAIL_QUEUE,
          name: 'send',
          jobId: event.eventId,
          data,
          // A mail outage is retried for about a day and a half before the job gives up.
          options: { attempts: 17, backoff: { type: 'exponential', delay: 1_000 }, removeOnComplete: 1_000, removeOnFail: 1_000 },
        },
      ],
    };
  }
}
