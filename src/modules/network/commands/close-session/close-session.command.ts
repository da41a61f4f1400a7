import { Command } from '@nestjs/cqrs';

/** The buyer or the listing's vendor closes a session; closing a closed one changes nothing. */
export class CloseSessionCommand extends Command<{ ok: true; session: { id: string; status: 'closed' } }> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
  ) {
    super();
  }
}
