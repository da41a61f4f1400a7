import { Command } from '@nestjs/cqrs';

/**
 * Publishes a release the vendor owns. A release still being scanned is
 * published when its scan passes or flags; a failed one never is (422).
 */
export class PublishReleaseCommand extends Command<{ version: string }> {
  constructor(
    readonly vendorId: string,
    readonly releaseId: string,
  ) {
    super();
  }
}
