import { isIP } from 'node:net';
import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { VendorEvents } from '../events';
import { checkVendorProfile, VendorProfileFields, websiteHost } from './vendor-profile';

/**
 * A vendor (stream `vendor-<userId>`, one per user): the profile and the two
 * ways of proving who it is, a DNS record on its website's host and admin
 * rights in a code-host organization. Either proof makes it `verified`.
 */
export type VendorEvent =
  | {
      type: typeof VendorEvents.VendorProfileSaved;
      /** `orgId`: the save linked the profile to that org (absent: the link, if any, is unchanged). */
      data: VendorProfileFields & { vendorId: string; previousSlug: string | null; savedAt: string; orgId?: string };
    }
  | {
      type: typeof VendorEvents.VendorDomainChallengeIssued;
      data: { vendorId: string; host: string; token: string; issuedAt: string };
    }
  | { type: typeof VendorEvents.VendorDomainVerified; data: { vendorId: string; host: string; verifiedAt: string } }
  | {
      type: typeof VendorEvents.VendorDomainVerificationLapsed;
      data: { vendorId: string; host: string; reason: string; lapsedAt: string };
    }
  | {
      type: typeof VendorEvents.VendorGithubVerificationStarted;
      data: { vendorId: string; org: string; stateHash: string; expiresAt: string };
    }
  | {
      type: typeof VendorEvents.VendorGithubVerified;
      data: { vendorId: string; org: string; login: string; accessToken: string; verifiedAt: string };
    }
  | {
      type: typeof VendorEvents.VendorGithubVerificationFailed;
      data: { vendorId: string; org: string; reason: string; failedAt: string };
    }
  | {
      type: typeof VendorEvents.VendorGithubVerificationLapsed;
      data: { vendorId: string; org: string; reason: string; lapsedAt: string };
    };

export type VendorState =
  | { exists: false }
  | {
      exists: true;
      vendorId: string;
      slug: string;
      bio: string | null;
      website: string | null;
      domain: { host: string; token: string; verified: boolean } | null;
      github: { org: string; verified: boolean } | null;
      pendingGithub: { org: string; stateHash: string; expiresAt: string } | null;
    };

/** `bio` and `website` left undefined keep their current values; null clears them. */
export type SaveProfileCommand = {
  type: 'SaveProfile';
  vendorId: string;
  slug: string;
  displayName: string;
  bio?: string | null;
  website?: string | null;
  /** Links the profile to an org (the caller has been checked to be its admin or owner). */
  orgId?: string;
  now: Date;
};

export type VendorCommand =
  | SaveProfileCommand
  | { type: 'IssueDomainChallenge'; token: string; now: Date }
  | { type: 'ConfirmDomain'; host: string; now: Date }
  | { type: 'LapseDomain'; reason: string; now: Date }
  | { type: 'StartGithubVerification'; org: string; stateHash: string; expiresAt: Date }
  | { type: 'CompleteGithubVerification'; stateHash: string; login: string; accessToken: string; now: Date }
  | { type: 'FailGithubVerification'; stateHash: string; reason: string; now: Date }
  | { type: 'LapseGithub'; reason: string; now: Date };

export const initialVendorState: VendorState = { exists: false };

const NO_PROFILE = 'Create a vendor profile first: POST /v1/vendor/profile';

export function decideVendor(command: VendorCommand, state: VendorState): VendorEvent[] {
  if (command.type === 'SaveProfile') {
    const fields: VendorProfileFields = {
      slug: command.slug,
      displayName: command.displayName.trim(),
      bio: command.bio !== undefined ? command.bio : state.exists ? state.bio : null,
      website: command.website !== undefined ? command.website : state.exists ? state.website : null,
    };
    checkVendorProfile(fields);
    const saved: VendorEvent = {
      type: VendorEvents.VendorProfileSaved,
      data: {
        vendorId: command.vendorId,
        ...fields,
        previousSlug: state.exists && state.slug !== command.slug ? state.slug : null,
        savedAt: command.now.toISOString(),
        ...(command.orgId !== undefined ? { orgId: command.orgId } : {}),
      },
    };
    // A proof for one host says nothing about another.
    const newHost = fields.website === null ? null : websiteHost(fields.website);
    if (state.exists && state.domain?.verified && state.domain.host !== newHost) {
      return [
        saved,
        {
          type: VendorEvents.VendorDomainVerificationLapsed,
          data: {
            vendorId: state.vendorId,
            host: state.domain.host,
            reason: 'website changed',
            lapsedAt: command.now.toISOString(),
          },
        },
      ];
    }
    return [saved];
  }
  if (!state.exists) throw new DomainError('not_found', NO_PROFILE);
  const { vendorId } = state;
  switch (command.type) {
    case 'IssueDomainChallenge': {
      if (state.website === null)
        throw new DomainError('unprocessable', 'Set a website on the vendor profile before verifying its domain');
      const host = websiteHost(state.website);
      if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
        throw new DomainError('unprocessable', 'The website is an IP address; domain verification needs a host name');
      }
      if (state.domain?.host === host) return []; // the record already issued stays valid
      return [
        {
          type: VendorEvents.VendorDomainChallengeIssued,
          data: { vendorId, host, token: command.token, issuedAt: command.now.toISOString() },
        },
      ];
    }
    case 'ConfirmDomain':
      if (!state.domain || state.domain.host !== command.host || state.domain.verified) return [];
      return [
        {
          type: VendorEvents.VendorDomainVerified,
          data: { vendorId, host: command.host, verifiedAt: command.now.toISOString() },
        },
      ];
    case 'LapseDomain':
      if (!state.domain?.verified) return [];
      return [
        {
          type: VendorEvents.VendorDomainVerificationLapsed,
          data: { vendorId, host: state.domain.host, reason: command.reason, lapsedAt: command.now.toISOString() },
        },
      ];
    case 'StartGithubVerification':
      return [
        {
          type: VendorEvents.VendorGithubVerificationStarted,
          data: { vendorId, org: command.org, stateHash: command.stateHash, expiresAt: command.expiresAt.toISOString() },
        },
      ];
    case 'CompleteGithubVerification': {
      const pending = usablePending(state, command.stateHash, command.now);
      return [
        {
          type: VendorEvents.VendorGithubVerified,
          data: {
            vendorId,
            org: pending.org,
            login: command.login,
            accessToken: command.accessToken,
            verifiedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'FailGithubVerification': {
      const pending = usablePending(state, command.stateHash, command.now);
      return [
        {
          type: VendorEvents.VendorGithubVerificationFailed,
          data: { vendorId, org: pending.org, reason: command.reason, failedAt: command.now.toISOString() },
        },
      ];
    }
    case 'LapseGithub':
      if (!state.github?.verified) return [];
      return [
        {
          type: VendorEvents.VendorGithubVerificationLapsed,
          data: { vendorId, org: state.github.org, reason: command.reason, lapsedAt: command.now.toISOString() },
        },
      ];
  }
}

/** The OAuth `state` is single-use: the first completion or failure consumes it. */
function usablePending(state: Extract<VendorState, { exists: true }>, stateHash: string, now: Date) {
  const pending = state.pendingGithub;
  if (!pending || pending.stateHash !== stateHash || new Date(pending.expiresAt).getTime() <= now.getTime()) {
    throw new DomainError('invalid', 'This verification link is invalid, expired or already used; start again');
  }
  return pending;
}

export function evolveVendor(state: VendorState, event: VendorEvent): VendorState {
  if (event.type === VendorEvents.VendorProfileSaved) {
    const base = state.exists ? state : { domain: null, github: null, pendingGithub: null };
    // A challenge for a host that is no longer the website's proves nothing any more.
    const host = event.data.website === null ? null : websiteHost(event.data.website);
    const domain = base.domain?.host === host ? base.domain : null;
    const { vendorId, slug, bio, website } = event.data;
    return { ...base, domain, exists: true, vendorId, slug, bio, website };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case VendorEvents.VendorDomainChallengeIssued:
      return { ...state, domain: { host: event.data.host, token: event.data.token, verified: false } };
    case VendorEvents.VendorDomainVerified:
      return state.domain ? { ...state, domain: { ...state.domain, verified: true } } : state;
    case VendorEvents.VendorDomainVerificationLapsed:
      return state.domain ? { ...state, domain: { ...state.domain, verified: false } } : state;
    case VendorEvents.VendorGithubVerificationStarted:
      return {
        ...state,
        pendingGithub: { org: event.data.org, stateHash: event.data.stateHash, expiresAt: event.data.expiresAt },
      };
    case VendorEvents.VendorGithubVerified:
      return { ...state, pendingGithub: null, github: { org: event.data.org, verified: true } };
    case VendorEvents.VendorGithubVerificationFailed:
      return { ...state, pendingGithub: null };
    case VendorEvents.VendorGithubVerificationLapsed:
      return state.github ? { ...state, github: { ...state.github, verified: false } } : state;
  }
}

export const vendorDecider: Decider<VendorCommand, VendorState, VendorEvent> = {
  decide: decideVendor,
  evolve: evolveVendor,
  initialState: initialVendorState,
};

export const vendorStreamId = (vendorId: string) => `vendor-${vendorId}`;
