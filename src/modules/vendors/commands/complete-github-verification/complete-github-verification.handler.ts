import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream, foldStream } from '../../../../event-store/fold-stream';
import { PersonalDataVault } from '../../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';
import { hashGithubState } from '../../domain/github-state';
import { GithubOAuth, GithubOrgRole } from '../../domain/ports';
import { vendorDecider, vendorStreamId } from '../../domain/vendor.decider';
import { CompleteGithubVerificationCommand } from './complete-github-verification.command';

const INVALID_STATE = 'This verification link is invalid, expired or already used; start again';

@CommandHandler(CompleteGithubVerificationCommand)
export class CompleteGithubVerificationHandler implements ICommandHandler<CompleteGithubVerificationCommand, { org: string }> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly github: GithubOAuth,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ state, code }: CompleteGithubVerificationCommand): Promise<{ org: string }> {
    const vendorId = state.split('.')[0];
    if (!isUuid(vendorId)) throw new DomainError('invalid', INVALID_STATE);
    const streamId = vendorStreamId(vendorId);
    const stateHash = hashGithubState(state);
    const { state: vendor } = await foldStream(this.store, streamId, vendorDecider.evolve, vendorDecider.initialState);
    // The same answer whether or not the named vendor exists: the state must not reveal who has a profile.
    if (!vendor.exists || !vendor.pendingGithub) throw new DomainError('invalid', INVALID_STATE);
    // Refuses a wrong, expired or used state before the code is spent.
    vendorDecider.decide({ type: 'FailGithubVerification', stateHash, reason: 'probe', now: this.clock.now() }, vendor);
    const { org } = vendor.pendingGithub;

    const fail = async (reason: string, error: DomainError) => {
      await decideOnStream(this.store, streamId, vendorDecider, {
        type: 'FailGithubVerification',
        stateHash,
        reason,
        now: this.clock.now(),
      });
      throw error;
    };
    let accessToken: string;
    let login: string;
    let role: GithubOrgRole | null;
    try {
      accessToken = await this.github.exchangeCode(code);
      login = await this.github.login(accessToken);
      role = await this.github.orgRole(accessToken, org);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'invalid') return fail(error.message, error);
      throw error; // GitHub unreachable: the state stays usable for a retry
    }
    if (role !== 'admin') {
      return fail(
        `not an admin of ${org}`,
        new DomainError('unprocessable', `The GitHub account ${login} is not an admin of the ${org} organization`),
      );
    }
    await decideOnStream(this.store, streamId, vendorDecider, {
      type: 'CompleteGithubVerification',
      stateHash,
      login,
      // Kept to re-check the membership later; sealed under the vendor's key, never in clear in the log.
      accessToken: await this.vault.seal(vendorId, accessToken),
      now: this.clock.now(),
    });
    return { org };
  }
}
