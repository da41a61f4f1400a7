import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { IdempotentRequest } from '../../../../platform/http/idempotency';
import { derivedId } from '../../../../platform/ids';
import { ServiceCallError, ServiceClient } from '../../clients/service-client';
import { CallFacts, CallOutcome } from '../../domain/service-call.decider';
import { callCostCents, ServiceTerms } from '../../domain/service-terms';
import { ServiceDirectory } from '../../read-models/service-directory';
import { CallLedger } from '../call-ledger';
import { CallAnswer, CallServiceCommand } from './call-service.command';

/**
 * When a reservation is released if nothing settled it (a crashed process):
 * the call timeout, and as long again (at least a second) for the settlement.
 */
export const settleByOf = (now: Date, timeoutMs: number): Date =>
  new Date(now.getTime() + timeoutMs + Math.max(1_000, timeoutMs));
/** Attempts one Idempotency-Key may make after failed (released) calls. */
const MAX_ATTEMPTS_PER_KEY = 50;

/**
 * A metered call: reserve the cost from the caller's wallet (402 when it
 * cannot), call the tool through the service's protocol, then settle: a
 * success keeps the debit and records the answer of an Idempotency-Key in the
 * same append; a failure refunds it and answers 502 (504 for a timeout) with
 * the service's message. A process that dies in between leaves a reservation
 * the service-call saga releases after its settle-by time.
 */
@CommandHandler(CallServiceCommand)
export class CallServiceHandler implements ICommandHandler<CallServiceCommand, CallAnswer> {
  constructor(
    private readonly directory: ServiceDirectory,
    private readonly calls: CallLedger,
    private readonly client: ServiceClient,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: CallServiceCommand): Promise<CallAnswer> {
    const { request } = command;
    const { terms } = await this.directory.require(command.vendorSlug, command.slug, command.callerId);
    this.refuseUnsupported(terms);
    const costCents = callCostCents(terms);
    if (request.maxCostCents !== undefined && costCents > request.maxCostCents)
      throw new DomainError(
        'payment_required',
        `The call costs ${costCents} cents, above your maxCostCents of ${request.maxCostCents}: nothing was charged`,
        { status: 'max_cost_exceeded', costCents },
      );
    if (request.sessionId !== undefined) await this.requireOpenSession(request.sessionId, command.callerId, terms.listingId);

    const { callId, upstreamKey } = await this.newCall();
    const facts: CallFacts = {
      callId,
      callerId: command.callerId,
      listingId: terms.listingId,
      vendorId: terms.vendorId,
      tool: request.tool,
      costCents,
      sessionId: request.sessionId ?? null,
    };
    const timeoutMs = this.config.network.serviceCallTimeoutMs;
    const settleBy = settleByOf(this.clock.now(), timeoutMs);
    const walletBalanceCents = await this.calls.reserve(
      facts,
      settleBy,
      `${command.vendorSlug}/${command.slug}: ${request.tool}`,
    );

    const started = performance.now();
    let outcome: CallOutcome = 'success';
    let result: unknown;
    let failure: string | null = null;
    try {
      result = await this.client.call(
        { endpoint: terms.endpoint!, protocol: terms.protocol!, transport: terms.transport },
        { tool: request.tool, input: request.input, callId, upstreamKey, timeoutMs },
      );
    } catch (error) {
      outcome = error instanceof ServiceCallError ? error.kind : 'upstream_error';
      failure = error instanceof ServiceCallError ? error.message : 'The service could not be called';
    }
    const durationMs = Math.round(performance.now() - started);
    const answer: CallAnswer = { result: result ?? null, costCents, walletBalanceCents, usageRecordId: facts.callId, durationMs };
    const settled = await this.calls.settle(facts.callId, outcome, durationMs, failure, () =>
      IdempotentRequest.recordAnswer(answer, 200),
    );
    if (settled === 'success') return answer;
    if (settled === 'timeout' || settled === 'abandoned')
      throw new DomainError('gateway_timeout', `${failure ?? 'The service did not answer in time'}: nothing was charged`, {
        usageRecordId: facts.callId,
      });
    throw new DomainError('bad_gateway', `The service failed: ${failure ?? 'unknown error'}. Nothing was charged`, {
      usageRecordId: facts.callId,
    });
  }

  private refuseUnsupported(terms: ServiceTerms): void {
    if (terms.protocol === 'a2a' || terms.protocol === 'acp')
      throw new DomainError('unprocessable', `Calls over the ${terms.protocol} protocol are not supported yet`);
    if (!terms.protocol)
      throw new DomainError('unprocessable', 'This service declares no serviceProtocol, so it cannot be called');
    if (terms.protocol === 'mcp' && terms.transport !== null && !['streamable_http', 'sse'].includes(terms.transport))
      throw new DomainError('unprocessable', `MCP over ${terms.transport} is not supported: use streamable_http or sse`);
    const unsupported = terms.settlementMethods.filter((m) => m !== 'wallet' && m !== 'free');
    if (callCostCents(terms) > 0 && terms.settlementMethods.length > 0 && !terms.settlementMethods.includes('wallet'))
      throw new DomainError(
        'unprocessable',
        `This service settles by ${unsupported.join(', ')}, which is not supported yet: only wallet and free work`,
      );
  }

  private async requireOpenSession(sessionId: string, callerId: string, listingId: string): Promise<void> {
    const { state } = await this.directory.session(sessionId);
    if (state.status !== 'open' || state.facts.buyerId !== callerId || state.facts.listingId !== listingId)
      throw new DomainError('not_found', 'No open session of yours with this id on this service');
  }

  /**
   * The call's id, derived from the Idempotency-Key, so a retry finds its call: a call the key made and released
   * (a failure, never recorded) lets the retry try anew under the next id; one still reserved is settling
   * elsewhere (409). The key sent to the vendor is the first attempt's id, the same for every retry with the key;
   * it derives from the caller's key within the caller's scope, so two callers' equal keys never meet upstream.
   * Without a key, both are a fresh id.
   */
  private async newCall(): Promise<{ callId: string; upstreamKey: string }> {
    const base = IdempotentRequest.derivedId('ServiceCall');
    if (!base) {
      const callId = randomUUID();
      return { callId, upstreamKey: callId };
    }
    for (let attempt = 0; attempt < MAX_ATTEMPTS_PER_KEY; attempt++) {
      const callId = attempt === 0 ? base : derivedId('ServiceCallAttempt', base, String(attempt));
      const { state } = await this.calls.fold(callId);
      if (state.status === 'none') return { callId, upstreamKey: base };
      if (state.status === 'reserved')
        throw new DomainError('conflict', 'A call with this Idempotency-Key is still being settled; retry shortly');
    }
    throw new DomainError('unprocessable', 'This Idempotency-Key was used for too many failed calls; use a new key');
  }
}
