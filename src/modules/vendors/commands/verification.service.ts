import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { decideOnStream, foldStream } from '../../../event-store/fold-stream';
import { PersonalDataVault } from '../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { vendorDecider, VendorEvent, vendorStreamId } from '../domain/vendor.decider';
import { NO_VENDOR_PROFILE } from '../queries/vendor-directory';
import { domainVerificationRecord, hasVerificationRecord } from '../domain/domain-record';
import { DnsTxtLookup, GithubOAuth } from '../domain/ports';

const GITHUB_STATE_TTL_MS = 10 * 60 * 1000;

const INVALID_STATE = 'This verification link is invalid, expired or already used; start again';

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/**
 * The two proofs a vendor can give: a TXT record on its website's host, and
 * admin rights in a GitHub organization. Both are re-checked on a schedule and
 * lapse when the proof is gone.
 */
@Injectable()
export class VerificationService {
  private readonly logger = new Logger(VerificationService.name);

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly dns: DnsTxtLookup,
    private readonly github: GithubOAuth,
    private readonly vault: PersonalDataVault,
  ) {}

  /** The TXT record value to publish; asking again for the same host returns the same record. */
  async domainRecord(vendorId: string): Promise<string> {
    const token = randomBytes(20).toString('hex');
    const { state } = await decideOnStream(this.store, vendorStreamId(vendorId), vendorDecider, {
      type: 'IssueDomainChallenge',
      token,
      now: this.clock.now(),
    });
    if (!state.exists || !state.domain) throw new DomainError('unprocessable', 'No domain challenge was issued');
    return domainVerificationRecord(state.domain.token);
  }

  /** Looks the record up now; a proof that disappeared lapses. */
  async checkDomain(vendorId: string): Promise<boolean> {
    const { state } = await foldStream(this.store, vendorStreamId(vendorId), vendorDecider.evolve, vendorDecider.initialState);
    if (!state.exists) throw new DomainError('forbidden', NO_VENDOR_PROFILE);
    if (!state.domain) throw new DomainError('unprocessable', 'Request a DNS record first: POST /v1/vendor/verify/domain');
    const { host, token } = state.domain;
    const present = hasVerificationRecord(await this.dns.txtRecords(host), token);
    const now = this.clock.now();
    const command = present
      ? { type: 'ConfirmDomain' as const, host, now }
      : { type: 'LapseDomain' as const, reason: `the TXT record on ${host} is missing`, now };
    await decideOnStream(this.store, vendorStreamId(vendorId), vendorDecider, command);
    return present;
  }

  /** The OAuth page to send the vendor to; its `state` names the vendor and works once, for ten minutes. */
  async githubAuthorizationUrl(vendorId: string, org: string): Promise<string> {
    const state = `${vendorId}.${randomBytes(24).toString('base64url')}`;
    // Built before the append: with GitHub unconfigured this is the 503, and the log records no attempt.
    const url = this.github.authorizationUrl(state);
    await decideOnStream(this.store, vendorStreamId(vendorId), vendorDecider, {
      type: 'StartGithubVerification',
      org,
      stateHash: hashState(state),
      expiresAt: new Date(this.clock.now().getTime() + GITHUB_STATE_TTL_MS),
    });
    return url;
  }

  /** The OAuth callback: exchanges the code and requires an active admin membership of the claimed organization. */
  async completeGithub(state: string, code: string): Promise<{ org: string }> {
    const vendorId = state.split('.')[0];
    if (!isUuid(vendorId)) throw new DomainError('invalid', INVALID_STATE);
    const streamId = vendorStreamId(vendorId);
    const stateHash = hashState(state);
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
    let role: string | null;
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

  /** Re-checks one vendor's proofs. A lookup that fails (DNS or GitHub down) changes nothing. */
  async recheck(vendorId: string): Promise<void> {
    const streamId = vendorStreamId(vendorId);
    const history = (await this.store.readStream(streamId)) as unknown as VendorEvent[];
    const state = history.reduce(vendorDecider.evolve, vendorDecider.initialState);
    if (!state.exists) return;
    const now = this.clock.now();
    if (state.domain?.verified) {
      try {
        await this.checkDomain(vendorId);
      } catch (error) {
        this.logger.warn(`domain re-check for vendor ${vendorId} skipped: ${(error as Error).message}`);
      }
    }
    if (state.github?.verified) {
      const verified = [...history].reverse().find((e) => e.type === 'VendorGithubVerified');
      const token = verified?.type === 'VendorGithubVerified' ? verified.data.accessToken : null;
      let role: string | null = null;
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
