import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { expectedAt } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { derivedId, isUuid } from '../../../../platform/ids';
import { OrgsReader } from '../../../orgs/read-models/orgs.reader';
import { approvalStreamId, decidableBy } from '../../domain/approval';
import { PurchasingEvents } from '../../events';
import { foldApproval } from '../purchase-streams';
import { PurchaseAnswer, PurchaseCommand } from '../purchase/purchase.command';
import { ApprovePurchaseCommand, DeclinePurchaseCommand } from './approve-purchase.command';

@CommandHandler(ApprovePurchaseCommand)
export class ApprovePurchaseHandler implements ICommandHandler<ApprovePurchaseCommand, PurchaseAnswer> {
  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly orgs: OrgsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ approvalId, ownerId }: ApprovePurchaseCommand): Promise<PurchaseAnswer> {
    if (!isUuid(approvalId)) throw new DomainError('not_found', 'Approval not found');
    const { state } = await foldApproval(this.store, approvalId);
    // An org's approvals are decided by its admins and owners.
    const { request } = decidableBy(state, [ownerId, ...(await this.orgs.adminOrgIdsOf(ownerId))], this.clock.now());
    // The purchase appends the approval's `approved` in its own atomic append: a second approval finds it decided.
    return this.commands.execute(
      new PurchaseCommand(
        request.requesterId,
        {
          listingId: request.terms.listingId,
          releaseId: request.terms.releaseId,
          useWallet: request.terms.useWallet,
          channel: request.terms.channel,
          orgSlug: request.terms.orgSlug,
        },
        { tokenId: request.tokenId, policyId: request.policyId },
        approvalId,
      ),
    );
  }
}

@CommandHandler(DeclinePurchaseCommand)
export class DeclinePurchaseHandler implements ICommandHandler<DeclinePurchaseCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly orgs: OrgsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ approvalId, ownerId }: DeclinePurchaseCommand): Promise<void> {
    if (!isUuid(approvalId)) throw new DomainError('not_found', 'Approval not found');
    const stream = approvalStreamId(approvalId);
    const { state, revision } = await foldApproval(this.store, approvalId);
    decidableBy(state, [ownerId, ...(await this.orgs.adminOrgIdsOf(ownerId))], this.clock.now());
    await this.store.append(
      stream,
      [
        {
          eventId: derivedId(PurchasingEvents.PurchaseApprovalDeclined, approvalId),
          type: PurchasingEvents.PurchaseApprovalDeclined,
          data: { approvalId, declinedAt: this.clock.now().toISOString() },
        },
      ],
      expectedAt(revision),
    );
  }
}
