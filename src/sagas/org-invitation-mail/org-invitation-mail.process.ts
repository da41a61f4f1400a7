import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { Clock } from '../../platform/clock/clock';
import { Mailer } from '../../platform/mail/mailer';
import { Queues } from '../../platform/queue/queues';
import { OrgDecisions } from '../../modules/orgs/commands/org-decisions';
import { InvitationTokens } from '../../modules/orgs/domain/invitation-tokens';

export const ORG_INVITATION_MAIL_QUEUE = 'org-invitation-mail';

export interface OrgInvitationMailJob {
  orgId: string;
  invitationId: string;
}

/**
 * Sends one invitation e-mail. It folds the org's stream when it runs, so an
 * invitation replaced, accepted, expired or of a deleted org is not sent. The
 * message's Message-ID derives from the invitation: a process killed after the
 * SMTP hand-over and before the job completed sends again on the retry (at
 * least once), with the same Message-ID, so the copy is recognisable.
 */
@Injectable()
export class OrgInvitationMailProcess implements OnApplicationBootstrap {
  private readonly logger = new Logger(OrgInvitationMailProcess.name);

  constructor(
    private readonly orgs: OrgDecisions,
    private readonly tokens: InvitationTokens,
    private readonly mailer: Mailer,
    private readonly queues: Queues,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker<OrgInvitationMailJob>(ORG_INVITATION_MAIL_QUEUE, (job: Job<OrgInvitationMailJob>) => this.run(job.data), {
      concurrency: 2,
    });
  }

  /** Resolves when the message was handed over or is no longer to be sent; rejects for a retry. */
  async run(job: OrgInvitationMailJob): Promise<'sent' | 'not_open'> {
    const org = await this.orgs.fold(job.orgId);
    const invitation =
      org.status === 'live' ? Object.values(org.invitations).find((open) => open.invitationId === job.invitationId) : undefined;
    if (!invitation || org.status !== 'live' || Date.parse(invitation.expiresAt) <= this.clock.now().getTime()) {
      this.logger.log(`invitation ${job.invitationId} is no longer open; no e-mail sent`);
      return 'not_open';
    }
    const link = `${this.config.webUrl}/invitations/${this.tokens.tokenFor(invitation.invitationId)}`;
    await this.mailer.send({
      to: invitation.email,
      subject: `You are invited to join ${org.name}`,
      text: [
        `You have been invited to join the organization "${org.name}" (${org.slug}) as ${invitation.role}.`,
        '',
        `Accept the invitation: ${link}`,
        '',
        `The link works once, for the account with this e-mail address, until ${invitation.expiresAt}.`,
      ].join('\n'),
      messageId: `<org-invitation-${invitation.invitationId}@${new URL(this.config.webUrl).hostname}>`,
    });
    this.logger.log(`invitation ${invitation.invitationId}: e-mail handed over`);
    return 'sent';
  }
}
