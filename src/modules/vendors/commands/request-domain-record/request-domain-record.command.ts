import { Command } from '@nestjs/cqrs';

/**
 * Issues the TXT record (`svc-verify=<token>`) to publish on the profile
 * website's host; asking again for the same host returns the same record.
 */
export class RequestDomainRecordCommand extends Command<string> {
  constructor(readonly vendorId: string) {
    super();
  }
}
