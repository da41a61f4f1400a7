import { Command } from '@nestjs/cqrs';

/** The OAuth callback: exchanges the code and requires an active admin membership of the claimed organization. */
export class CompleteGithubVerificationCommand extends Command<{ org: string }> {
  constructor(
    /** The single-use `state` from the authorization URL; it names the vendor. */
    readonly state: string,
    readonly code: string,
  ) {
    super();
  }
}
