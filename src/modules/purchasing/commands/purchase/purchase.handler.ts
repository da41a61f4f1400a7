import { randomUUID } from 'node:crypto';
import { CommandBus, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { derivedId } from '../../../../platform/ids';
import { IdempotentRequest } from '../../../../platform/http/idempotency';
import { GetPaymentMethodsQuery } from '../../../billing/queries/get-payment-methods/get-payment-methods.query';
import { PolicyLedger } from '../../../policies/commands/policy-ledger';
import { PolicyApprovalRequiredError, SpendPolicyState } from '../../../policies/domain';
import { GetPurchaseTermsQuery, PurchaseTerms } from '../../../catalog/queries/get-purchase-terms/get-purchase-terms.query';
import { WalletLedger } from '../../../wallet/commands/wallet-ledger';
import { walletDecider } from '../../../wallet/domain/wallet.decider';
import { userWallet, WalletOwner } from '../../../wallet/domain/wallet-owner';
import { orgWallet } from '../../../orgs/domain/org-owner';
import { OrgsReader } from '../../../orgs/read-models/orgs.reader';
import { ListPoliciesQuery } from '../../../policies/queries/list-policies/list-policies.query';
import { FoldedPolicy } from '../../../policies/commands/policy-ledger';
import {
  EntitlementEvent,
  EntitlementGranted,
  entitlementIdFor,
  entitlementStreamId,
  FundingSource,
  orderStreamId,
  PurchaseMade,
  splitSale,
} from '../../domain/purchase';
import { PurchasingEvents } from '../../events';
import { foldEntitlement, foldApproval } from '../purchase-streams';
import { APPROVAL_LIFETIME_MS, ApprovalEvent, approvalStreamId } from '../../domain/approval';
import { ChargeCardPurchaseCommand } from '../charge-card-purchase/charge-card-purchase.command';
import { PurchaseAnswer, PurchaseCommand } from './purchase.command';

/**
 * One purchase, decided as one atomic append: the order, the entitlement
 * (`no_stream`: one per buyer and listing, so racing purchases grant once and
 * the losers answer `already_owned`) and, for a wallet purchase, the debit at
 * the wallet's revision (so concurrent purchases never overdraw it). Either
 * all of them are stored, with the recorded answer of an `Idempotency-Key`, or none.
 */
@CommandHandler(PurchaseCommand)
export class PurchaseHandler implements ICommandHandler<PurchaseCommand, PurchaseAnswer> {
  constructor(
    private readonly store: EventStore,
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly ledger: WalletLedger,
    private readonly policies: PolicyLedger,
    private readonly orgs: OrgsReader,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: PurchaseCommand): Promise<PurchaseAnswer> {
    const { userId, request } = command;
    // For an org: the caller must be a member (else 404); the org wallet pays and the org holds the entitlement.
    const orgId = request.orgSlug !== undefined ? (await this.orgs.membership(request.orgSlug, userId)).org.id : null;
    const terms = await this.queries.execute(
      new GetPurchaseTermsQuery({ listingId: request.listingId, releaseId: request.releaseId, buyerId: userId }),
    );
    if (command.approvalId) await this.refuseIfPriceRose(command.approvalId, terms);
    if (request.maxPriceCents !== undefined && terms.priceCents > request.maxPriceCents)
      throw new DomainError(
        'conflict',
        `The price is ${terms.priceCents} cents, above your maxPriceCents of ${request.maxPriceCents}: nothing was charged`,
      );
    const funding: FundingSource = terms.priceCents === 0 ? 'free' : request.useWallet || orgId ? 'wallet' : 'card';
    if (funding === 'card') await this.requireSavedCard(userId, terms, command.approvalId);
    const orderId = IdempotentRequest.derivedId('Order') ?? randomUUID();
    const buyer: Buyer = orgId ? { kind: 'org', id: orgId } : { kind: 'user', id: userId };
    const decide = () => retryOnConflict(() => this.decide(command, terms, funding, orderId, buyer));
    const decided = await (funding === 'wallet' ? this.ledger.exclusively(walletOf(buyer), decide) : decide());
    // Charged after the decision, never inside its retries: a race lost while charging (the card-purchase saga
    // charging the same order) must not decide the purchase, or its approval, a second time.
    return decided.chargeCard ? this.charge(terms, orderId, decided.answer) : decided.answer;
  }

  private async decide(
    command: PurchaseCommand,
    terms: PurchaseTerms,
    funding: FundingSource,
    orderId: string,
    buyer: Buyer,
  ): Promise<{ answer: PurchaseAnswer; chargeCard?: true }> {
    const { userId, request } = command;
    const now = this.clock.now();
    // An approval is decided first: a second approval of it is a conflict, not an `already_owned`.
    const approval = command.approvalId ? await this.approvalAppend(command.approvalId, orderId, now) : undefined;
    // The entitlement's holder: the buying user, or the org it buys for (every member is then entitled).
    const holderId = buyer.id;
    const entitlementId = entitlementIdFor(holderId, terms.listingId);
    const entitlementStream = entitlementStreamId(holderId, terms.listingId);
    const held = await foldEntitlement(this.store, holderId, terms.listingId);
    if (held.state.status === 'granted') return { answer: { status: 'already_owned', entitlementId } };
    // A member buying for itself already holds what one of its orgs owns.
    if (buyer.kind === 'user') {
      const viaOrg = await this.orgEntitlementOf(userId, terms.listingId);
      if (viaOrg) return { answer: { status: 'already_owned', entitlementId: viaOrg } };
    }
    // A card purchase of it is settling: this is the same purchase, not a second charge.
    if (held.state.status === 'pending')
      return { answer: { status: 'purchased', entitlementId, orderId: held.state.orderId, amountCents: terms.priceCents } };

    // The token's spend policy: its spend recorded in this same append (so concurrent purchases cannot jointly pass
    // a limit), or, when a rule refuses, an approval for its owner instead of the purchase. A card purchase's spend
    // is provisional: the order names the policies, so its payment's outcome settles or gives back each spend.
    const policySpends =
      buyer.kind === 'org'
        ? await this.orgPolicyAppends(command, buyer.id, terms, orderId, funding, now)
        : await this.policyAppends(command, terms, orderId, funding, now);
    const made: PurchaseMade = {
      type: PurchasingEvents.PurchaseMade,
      data: {
        orderId,
        buyer,
        userId,
        listingId: terms.listingId,
        releaseId: terms.releaseId,
        version: terms.version,
        vendorId: terms.vendorId,
        vendorSlug: terms.vendorSlug,
        vendorName: terms.vendorName,
        listingSlug: terms.listingSlug,
        listingTitle: terms.listingTitle,
        listingType: terms.listingType,
        amountCents: terms.priceCents,
        ...splitSale(terms.priceCents, this.config.platformFeeBps),
        fundingSource: funding,
        status: funding === 'card' ? 'pending' : 'paid',
        paymentIntentId: null,
        channel: request.channel ?? 'api',
        policyIds: policySpends.policyIds,
        madeAt: now.toISOString(),
      },
    };
    const granted: EntitlementGranted = {
      type: PurchasingEvents.EntitlementGranted,
      data: {
        entitlementId,
        userId: holderId,
        listingId: terms.listingId,
        releaseId: terms.releaseId,
        orderId,
        vendorSlug: terms.vendorSlug,
        listingSlug: terms.listingSlug,
        listingTitle: terms.listingTitle,
        version: terms.version,
        grantedAt: now.toISOString(),
      },
    };
    const hold: EntitlementEvent = {
      type: PurchasingEvents.EntitlementPending,
      data: { userId: holderId, listingId: terms.listingId, orderId, heldAt: now.toISOString() },
    };
    const appends: StreamAppend[] = [
      { streamId: orderStreamId(orderId), events: [{ eventId: derivedId(made.type, orderId), ...made }], expected: 'no_stream' },
      {
        streamId: entitlementStream,
        events: [
          funding === 'card'
            ? { eventId: derivedId(hold.type, orderId), ...hold }
            : { eventId: derivedId(granted.type, orderId), ...granted },
        ],
        expected: expectedAt(held.revision),
      },
    ];
    appends.push(...policySpends.appends);
    if (approval) appends.push(approval);
    let answer: PurchaseAnswer = { status: 'purchased', entitlementId, orderId, amountCents: terms.priceCents };
    if (funding === 'card') {
      // Held before the charge, so the processor's webhook always finds a pending order; the answer is recorded once the charge is.
      await this.store.appendAtomically(appends);
      return { answer, chargeCard: true };
    }
    if (funding === 'wallet') {
      const owner = walletOf(buyer);
      const wallet = await this.ledger.fold(owner);
      // 402 insufficient_balance, with both amounts, when the wallet cannot pay: nothing is appended.
      const debited = walletDecider.decide(
        {
          type: 'Debit',
          debitId: orderId,
          amountCents: terms.priceCents,
          reason: 'purchase',
          description: `${terms.listingTitle} ${terms.version}`,
          reference: { orderId, listingId: terms.listingId },
          now,
        },
        wallet.state,
      );
      appends.push(this.ledger.appendOf(owner, wallet, debited));
      answer = { ...answer, walletBalanceCents: debited.reduce(walletDecider.evolve, wallet.state).balanceCents };
    }
    await this.store.appendAtomically([...appends, ...(await IdempotentRequest.recordAnswer(answer, 200))]);
    return { answer };
  }

  /**
   * Charges the saved card now, so a decline is answered at once (402, the
   * hold released); the card-purchase saga makes the same charge (same
   * idempotency key) if this process dies first. The order stays pending until
   * the processor's `payment_intent.succeeded` grants the entitlement.
   */
  private async charge(terms: PurchaseTerms, orderId: string, answer: PurchaseAnswer): Promise<PurchaseAnswer> {
    let refusal: DomainError | undefined;
    const outcome = await this.commands.execute(
      new ChargeCardPurchaseCommand(orderId, {
        charged: () => IdempotentRequest.recordAnswer(answer, 200),
        declined: (reason) => {
          refusal = this.checkoutRequired(terms, reason);
          return IdempotentRequest.recordAnswer({ ...refusal.details, message: refusal.message }, 402);
        },
      }),
    );
    if (!outcome.charged) throw refusal ?? this.checkoutRequired(terms, outcome.reason);
    return answer;
  }

  /**
   * A purchase for an org answers to the org's active policies, all of them,
   * instead of the token's personal policy; with no active org policy, the
   * token's policy applies as for a personal purchase. A refusal by an org
   * policy asks the org's admins and owners for approval (402 `approval_required`).
   */
  private async orgPolicyAppends(
    command: PurchaseCommand,
    orgId: string,
    terms: PurchaseTerms,
    orderId: string,
    funding: FundingSource,
    now: Date,
  ): Promise<PolicySpendAppends> {
    const listed = await this.queries.execute(new ListPoliciesQuery({ kind: 'org', id: orgId }));
    const active = listed.filter((policy) => policy.active);
    if (active.length === 0) return this.policyAppends(command, terms, orderId, funding, now);
    const recorded: PolicySpendAppends = { policyIds: [], appends: [] };
    for (const { id } of active) {
      const policy: FoldedPolicy = await this.policies.fold(id);
      try {
        const spend = this.policies.decideSpend(policy, {
          purchaseId: orderId,
          priceCents: terms.priceCents,
          vendorSlug: terms.vendorSlug,
          listingType: terms.listingType,
          approved: command.approvalId !== undefined,
          provisional: funding === 'card',
          now,
        });
        if (spend.length > 0) recorded.policyIds.push(id);
        recorded.appends.push(...this.policies.appendsOf(policy, spend));
      } catch (error) {
        if (!(error instanceof PolicyApprovalRequiredError)) throw error;
        throw await this.requestApproval(command, terms, policy.state, error.evaluation, now, {
          policyId: id,
          ownerId: orgId,
          orgSlug: command.request.orgSlug,
        });
      }
    }
    return recorded;
  }

  /** The id of an entitlement to the listing held by one of the user's orgs, if any. */
  private async orgEntitlementOf(userId: string, listingId: string): Promise<string | null> {
    for (const orgId of await this.orgs.orgIdsOf(userId)) {
      const held = await foldEntitlement(this.store, orgId, listingId);
      if (held.state.status === 'granted') return entitlementIdFor(orgId, listingId);
    }
    return null;
  }

  private async policyAppends(
    command: PurchaseCommand,
    terms: PurchaseTerms,
    orderId: string,
    funding: FundingSource,
    now: Date,
  ): Promise<PolicySpendAppends> {
    const { policyId } = command.caller;
    if (!policyId) return { policyIds: [], appends: [] };
    const policy = await this.policies.fold(policyId);
    try {
      const spend = this.policies.decideSpend(policy, {
        purchaseId: orderId,
        priceCents: terms.priceCents,
        vendorSlug: terms.vendorSlug,
        listingType: terms.listingType,
        approved: command.approvalId !== undefined,
        provisional: funding === 'card',
        now,
      });
      return { policyIds: spend.length > 0 ? [policyId] : [], appends: this.policies.appendsOf(policy, spend) };
    } catch (error) {
      if (!(error instanceof PolicyApprovalRequiredError)) throw error;
      throw await this.requestApproval(command, terms, policy.state, error.evaluation, now);
    }
  }

  /**
   * Records what the agent asked to buy, for the policy's owner to approve or
   * decline (`/v1/approvals/:id`), and answers 402 `approval_required`. With an
   * Idempotency-Key, a retry answers the same approval.
   */
  private async requestApproval(
    command: PurchaseCommand,
    terms: PurchaseTerms,
    policy: SpendPolicyState,
    refusal: { rule: string; reason: string },
    now: Date,
    /** An org policy's refusal: the org owns the approval (its admins and owners decide) and the purchase is for it. */
    forOrg?: { policyId: string; ownerId: string; orgSlug?: string },
  ): Promise<DomainError> {
    const approvalId = IdempotentRequest.derivedId('Approval') ?? randomUUID();
    const ownerId =
      forOrg?.ownerId ?? (policy.status !== 'none' && policy.owner.kind === 'user' ? policy.owner.id : command.userId);
    const requested: ApprovalEvent = {
      type: PurchasingEvents.PurchaseApprovalRequested,
      data: {
        approvalId,
        requesterId: command.userId,
        ownerId,
        tokenId: command.caller.tokenId,
        tokenName: command.caller.tokenName ?? null,
        policyId: forOrg?.policyId ?? command.caller.policyId!,
        rule: refusal.rule,
        reason: refusal.reason,
        terms: {
          listingId: terms.listingId,
          releaseId: terms.releaseId,
          priceCents: terms.priceCents,
          useWallet: command.request.useWallet ?? false,
          channel: command.request.channel ?? 'api',
          listingTitle: terms.listingTitle,
          vendorSlug: terms.vendorSlug,
          version: terms.version,
          ...(forOrg?.orgSlug ? { orgSlug: forOrg.orgSlug } : {}),
        },
        requestedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + APPROVAL_LIFETIME_MS).toISOString(),
      },
    };
    const details = {
      status: 'approval_required',
      approvalUrl: `${this.config.webUrl}/approvals/${approvalId}`,
      reason: refusal.reason,
      rule: refusal.rule,
    };
    await this.store.appendAtomically([
      {
        streamId: approvalStreamId(approvalId),
        events: [{ eventId: derivedId(requested.type, approvalId), ...requested }],
        expected: 'no_stream',
      },
      ...(await IdempotentRequest.recordAnswer({ ...details, message: refusal.reason }, 402)),
    ]);
    return new DomainError('payment_required', refusal.reason, details);
  }

  /** The approval, marked approved in the purchase's own append at its revision: it executes once. */
  private async approvalAppend(approvalId: string, orderId: string, now: Date): Promise<StreamAppend> {
    const approval = await foldApproval(this.store, approvalId);
    if (approval.state.status !== 'pending') throw new DomainError('conflict', 'This approval was already decided');
    const approved: ApprovalEvent = {
      type: PurchasingEvents.PurchaseApprovalApproved,
      data: { approvalId, orderId, approvedAt: now.toISOString() },
    };
    return {
      streamId: approvalStreamId(approvalId),
      events: [{ eventId: derivedId(approved.type, approvalId), ...approved }],
      expected: expectedAt(approval.revision),
    };
  }

  /** An approval covers the price it was asked for: a higher one now is refused, and nothing moves. */
  private async refuseIfPriceRose(approvalId: string, terms: PurchaseTerms): Promise<void> {
    const { state } = await foldApproval(this.store, approvalId);
    if (state.status === 'none') throw new DomainError('not_found', 'Approval not found');
    const approvedCents = state.request.terms.priceCents;
    if (terms.priceCents > approvedCents)
      throw new DomainError(
        'conflict',
        `The price rose from ${approvedCents} to ${terms.priceCents} cents since this purchase was asked for: it was not bought`,
      );
  }

  /**
   * A card purchase charges the saved card off-session; without one, the buyer must check out on the web. An approved
   * purchase is still pending then (nothing was appended): its checkout carries the approval, so that adding a card
   * there completes this very approval on its terms, instead of leaving it pending beside a second purchase.
   */
  private async requireSavedCard(userId: string, terms: PurchaseTerms, approvalId?: string): Promise<void> {
    const { paymentMethods } = await this.queries.execute(new GetPaymentMethodsQuery(userWallet(userId)));
    if (paymentMethods.length === 0) {
      const reason = approvalId
        ? 'No saved payment method: add a card at checkout to complete this approved purchase'
        : 'No saved payment method: check out on the web, or pay from the wallet with useWallet';
      throw this.checkoutRequired(terms, reason, approvalId);
    }
  }

  private checkoutRequired(terms: PurchaseTerms, reason: string, approvalId?: string): DomainError {
    const query = new URLSearchParams({ releaseId: terms.releaseId, ...(approvalId ? { approvalId } : {}) });
    const approvalUrl = `${this.config.webUrl}/checkout/${terms.listingId}?${query}`;
    return new DomainError('payment_required', reason, { status: 'approval_required', reason, approvalUrl });
  }
}

type Buyer = { kind: 'user' | 'org'; id: string };

/** The spend a purchase records on its policies: the appends, and the policies that recorded something. */
interface PolicySpendAppends {
  policyIds: string[];
  appends: StreamAppend[];
}

const walletOf = (buyer: Buyer): WalletOwner => (buyer.kind === 'org' ? orgWallet(buyer.id) : userWallet(buyer.id));
