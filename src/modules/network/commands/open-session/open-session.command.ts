import { Command } from '@nestjs/cqrs';

export interface SessionView {
  id: string;
  status: 'open' | 'closed';
  protocol: string | null;
  transport: string | null;
  createdAt: string;
}

export interface OpenedSession {
  session: SessionView;
  listingId: string;
}

/** Opens a session with a listing's live service; an `intent` is sent as its first message (`intent.open`). */
export class OpenSessionCommand extends Command<OpenedSession> {
  constructor(
    readonly buyerId: string,
    readonly vendorSlug: string,
    readonly slug: string,
    readonly intent?: string,
    readonly context?: Record<string, unknown>,
    readonly settlementMethod?: string,
  ) {
    super();
  }
}
