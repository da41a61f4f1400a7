import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { GithubOAuth, GithubOrgRole } from '../../domain/ports';
import { vendorDecider, VendorEvent, vendorStreamId } from '../../domain/vendor.decider';
import { VendorEvents } from '../../events';
import { CheckDomainCommand } from '../check-domain/check-domain.command';
import { RecheckVerificationCommand } from './recheck-verification.command';

@CommandHandler(RecheckVerificationCommand)
export class RecheckVerificationHandler implements ICommandHandler<RecheckVerificationCommand, void> {
  private readonly logger = new Logger(RecheckVerificationHandler.name);

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly github: GithubOAuth,
    private readonly commands: CommandBus,
  ) {}

  async execute({ vendorId }: RecheckVerificationCommand): Promise<void> {
    const streamId = vendorStreamId(vendorId);
    const history = (await this.store.readStream(streamId)) as unknown as VendorEvent[];
    const state = history.reduce(vendorDecider.evolve, vendorDecider.initialState);
    if (!state.exists) return;
    const now = this.clock.now();
    if (state.domain?.verified) {
      try {
        // The same check a vendor asks for: present confirms, gone lapses.
        await this.commands.execute(new CheckDomainCommand(vendorId));
      } catch (error) {
        this.logger.warn(`domain re-check for vendor ${vendorId} skipped: ${(error as Error).message}`);
      }
    }
    if (state.github?.verified) {
      // The token the vendor granted, opened from its sealed form as the stream is read.
      const verified = [...history].reverse().find((e) => e.type === VendorEvents.VendorGithubVerified);
      const token = verified?.type === VendorEvents.VendorGithubVerified ? verified.data.accessToken : null;
      let role: GithubOrgRole | null = null;
      try {
        role = token ? await this.github.orgRole(token, state.github.org) : null;
      } catch (error) {
        this.logger.warn(`GitHub re-check for vendor ${vendorId} skipped: ${(error as Error).message}`);
        return;
      }
      if (role !== 'admin') {
        await decideOnStream(this.store, streamId, vendorDecider, {
          type: 'LapseGithub',
          reason: `no longer an admin of ${state.github.org}`,
          now,
        });
      }
    }
  }
}
