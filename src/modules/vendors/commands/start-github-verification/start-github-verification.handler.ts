import { randomBytes } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { GITHUB_STATE_TTL_MS, hashGithubState } from '../../domain/github-state';
import { GithubOAuth } from '../../domain/ports';
import { vendorDecider, vendorStreamId } from '../../domain/vendor.decider';
import { VendorsReader } from '../../read-models/vendors.reader';
import { StartGithubVerificationCommand } from './start-github-verification.command';

@CommandHandler(StartGithubVerificationCommand)
export class StartGithubVerificationHandler implements ICommandHandler<StartGithubVerificationCommand, string> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly github: GithubOAuth,
    private readonly vendors: VendorsReader,
  ) {}

  async execute({ vendorId, org }: StartGithubVerificationCommand): Promise<string> {
    await this.vendors.require(vendorId);
    const state = `${vendorId}.${randomBytes(24).toString('base64url')}`;
    // Built before the append: with GitHub unconfigured this is the 503, and the log records no attempt.
    const url = this.github.authorizationUrl(state);
    await decideOnStream(this.store, vendorStreamId(vendorId), vendorDecider, {
      type: 'StartGithubVerification',
      org,
      stateHash: hashGithubState(state),
      expiresAt: new Date(this.clock.now().getTime() + GITHUB_STATE_TTL_MS),
    });
    return url;
  }
}
