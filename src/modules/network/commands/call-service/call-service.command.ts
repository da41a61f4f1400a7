import { Command } from '@nestjs/cqrs';

export interface CallAnswer {
  result: unknown;
  costCents: number;
  walletBalanceCents: number;
  usageRecordId: string;
  durationMs: number;
}

/** Calls a tool of a listing's live service, metered against the caller's wallet. */
export class CallServiceCommand extends Command<CallAnswer> {
  constructor(
    readonly callerId: string,
    readonly vendorSlug: string,
    readonly slug: string,
    readonly request: {
      tool: string;
      input: Record<string, unknown>;
      maxCostCents?: number;
      sessionId?: string;
    },
  ) {
    super();
  }
}
