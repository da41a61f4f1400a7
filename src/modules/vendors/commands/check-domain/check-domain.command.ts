import { Command } from '@nestjs/cqrs';

/** Looks the vendor's TXT record up now: present verifies the domain, gone lapses it. Answers whether it is verified. */
export class CheckDomainCommand extends Command<boolean> {
  constructor(readonly vendorId: string) {
    super();
  }
}
