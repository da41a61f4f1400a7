import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { orgDecider, orgSlugStreamId, orgStreamId } from '../../domain/org.decider';
import { checkOrgName, checkOrgSlug } from '../../domain/org-profile';
import { OrgEvents } from '../../events';
import { CreateOrgCommand } from './create-org.command';

/**
 * Slug uniqueness: the reservation stream `org-slug-<slug>` appended with
 * `no_stream` in the same transaction as the org, so of two racing creations
 * one wins and the other is 409. A slug is never released, even when its org
 * is deleted: old links must never lead into another team.
 */
@CommandHandler(CreateOrgCommand)
export class CreateOrgHandler implements ICommandHandler<CreateOrgCommand, { orgId: string; slug: string; name: string }> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ creatorId, slug, name }: CreateOrgCommand): Promise<{ orgId: string; slug: string; name: string }> {
    checkOrgSlug(slug);
    const checkedName = checkOrgName(name);
    const taken = new DomainError('conflict', `The organization slug "${slug}" is taken`);
    if ((await this.store.readStream(orgSlugStreamId(slug), { maxCount: 1 })).length > 0) throw taken;
    const orgId = randomUUID();
    const events = orgDecider.decide(
      { type: 'CreateOrg', orgId, slug, name: checkedName, ownerId: creatorId, now: this.clock.now() },
      orgDecider.initialState,
    );
    try {
      await this.store.appendAtomically([
        { streamId: orgStreamId(orgId), events, expected: 'no_stream' },
        {
          streamId: orgSlugStreamId(slug),
          events: [{ type: OrgEvents.OrgSlugReserved, data: { orgId } }],
          expected: 'no_stream',
        },
      ]);
    } catch (error) {
      if ((await this.store.readStream(orgSlugStreamId(slug), { maxCount: 1 })).length > 0) throw taken;
      throw error;
    }
    return { orgId, slug, name: checkedName };
  }
}
