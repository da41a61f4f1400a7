import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { CallOutcome } from '../../domain/service-call.decider';
import { CallLedger } from '../call-ledger';
import { ResolveServiceCallCommand } from './resolve-service-call.command';

/** Thrown while the call may still be settled by its own request: the job runs again later. */
export class NotYetDueError extends Error {
  constructor(callId: string, settleBy: string) {
    super(`The call ${callId} may still settle itself until ${settleBy}`);
    this.name = 'NotYetDueError';
  }
}

@CommandHandler(ResolveServiceCallCommand)
export class ResolveServiceCallHandler implements ICommandHandler<ResolveServiceCallCommand, CallOutcome | null> {
  constructor(
    private readonly calls: CallLedger,
    private readonly clock: Clock,
  ) {}

  async execute({ callId }: ResolveServiceCallCommand): Promise<CallOutcome | null> {
    const { state } = await this.calls.fold(callId);
    if (state.status === 'settled') return state.outcome;
    if (state.status === 'none') return null;
    if (this.clock.now().getTime() < Date.parse(state.settleBy)) throw new NotYetDueError(callId, state.settleBy);
    return this.calls.settle(
      callId,
      'abandoned',
      0,
      'The call was never settled (the process making it stopped): released, nothing was charged',
    );
  }
}
