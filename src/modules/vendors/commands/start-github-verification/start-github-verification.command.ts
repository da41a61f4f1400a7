import { Command } from '@nestjs/cqrs';

/**
 * Starts proving admin rights in a GitHub organization: answers the OAuth page
 * to send the vendor to. Its `state` names the vendor and works once, for ten minutes.
 */
export class StartGithubVerificationCommand extends Command<string> {
  constructor(
    readonly vendorId: string,
    readonly org: string,
  ) {
    super();
  }
}
