import { vendorDecider, VendorCommand, VendorEvent, VendorState } from '../../../src/modules/vendors/domain/vendor.decider';
import { at, errorOf, givenWhenThen, t0 } from '../../support/decider';

const vendorId = '6f1c1f0e-5a7b-4c1d-9e2f-0a1b2c3d4e5f';

const { fold, when, then } = givenWhenThen(vendorDecider);

type ProfileFields = { slug?: string; displayName?: string; bio?: string | null; website?: string | null };
const saveProfile = (fields: ProfileFields = {}, now = t0): VendorCommand => ({
  type: 'SaveProfile',
  vendorId,
  slug: 'acme-tools',
  displayName: 'Acme Tools',
  bio: 'We make agents.',
  website: 'https://acme.example',
  now,
  ...fields,
});

const profile = then([], saveProfile());
const challenged = then(profile, { type: 'IssueDomainChallenge', token: 'token-1', now: at(10) });
const domainVerified = then(challenged, { type: 'ConfirmDomain', host: 'acme.example', now: at(20) });

const stateHash = 'a'.repeat(64);
const githubStarted = then(profile, { type: 'StartGithubVerification', org: 'acme', stateHash, expiresAt: at(600) });
const complete = (now = at(60), hash = stateHash): VendorCommand => ({
  type: 'CompleteGithubVerification',
  stateHash: hash,
  login: 'octocat',
  accessToken: 'gho_secret',
  now,
});
const githubVerified = then(githubStarted, complete());

describe('vendor decider', () => {
  describe('SaveProfile', () => {
    it('creates a profile with no previous slug', () => {
      expect(when([], saveProfile({ displayName: '  Acme Tools  ' }))).toEqual([
        {
          type: 'VendorProfileSaved',
          data: {
            vendorId,
            slug: 'acme-tools',
            displayName: 'Acme Tools',
            bio: 'We make agents.',
            website: 'https://acme.example',
            previousSlug: null,
            savedAt: t0.toISOString(),
          },
        },
      ]);
      expect(fold(profile)).toEqual({
        exists: true,
        vendorId,
        slug: 'acme-tools',
        bio: 'We make agents.',
        website: 'https://acme.example',
        domain: null,
        github: null,
        pendingGithub: null,
      });
    });

    it('keeps an omitted bio and website on update, and clears them when null', () => {
      const kept = when(profile, { type: 'SaveProfile', vendorId, slug: 'acme-tools', displayName: 'Acme', now: at(5) });
      expect(kept[0].data).toMatchObject({ bio: 'We make agents.', website: 'https://acme.example' });
      const cleared = when(profile, {
        type: 'SaveProfile',
        vendorId,
        slug: 'acme-tools',
        displayName: 'Acme',
        bio: null,
        website: null,
        now: at(5),
      });
      expect(cleared[0].data).toMatchObject({ bio: null, website: null });
    });

    it('updates a profile, keeping previousSlug null when the slug is unchanged', () => {
      const events = when(profile, saveProfile({ displayName: 'Acme', bio: null }, at(5)));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'VendorProfileSaved',
        data: { slug: 'acme-tools', displayName: 'Acme', bio: null, previousSlug: null, savedAt: at(5).toISOString() },
      });
    });

    it('records the previous slug when the slug changes', () => {
      const events = when(profile, saveProfile({ slug: 'acme-labs' }, at(5)));
      expect(events).toEqual([
        expect.objectContaining({
          type: 'VendorProfileSaved',
          data: expect.objectContaining({ slug: 'acme-labs', previousSlug: 'acme-tools' }),
        }),
      ]);
      expect(fold([...profile, ...events])).toMatchObject({ slug: 'acme-labs' });
    });

    it('keeps the verifications when the profile is saved again', () => {
      const history = then([...domainVerified, ...githubVerified.slice(profile.length)], saveProfile({ bio: 'New bio' }, at(90)));
      expect(fold(history)).toMatchObject({
        domain: { host: 'acme.example', token: 'token-1', verified: true },
        github: { org: 'acme', verified: true },
      });
    });

    it.each([
      ['a single character', 'a'],
      ['uppercase letters', 'Acme'],
      ['a leading hyphen', '-acme'],
      ['a trailing hyphen', 'acme-'],
      ['an underscore', 'acme_tools'],
      ['33 characters', 'a'.repeat(33)],
      ['the empty string', ''],
    ])('refuses a slug with %s', (_label, slug) => {
      const error = errorOf(() => when([], saveProfile({ slug })));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/slug/);
    });

    it('accepts slugs of 2 and 32 characters', () => {
      expect(when([], saveProfile({ slug: 'ab' }))).toHaveLength(1);
      expect(when([], saveProfile({ slug: 'a'.repeat(32) }))).toHaveLength(1);
    });

    it.each(['admin', 'api', 'vendor', 'www', 'v1', 'null'])('refuses the reserved slug %s', (slug) => {
      const error = errorOf(() => when([], saveProfile({ slug })));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/reserved/);
    });

    it('refuses a displayName that is empty once trimmed or longer than 64 characters', () => {
      expect(errorOf(() => when([], saveProfile({ displayName: '   ' }))).code).toBe('invalid');
      expect(errorOf(() => when([], saveProfile({ displayName: 'x'.repeat(65) }))).code).toBe('invalid');
      expect(when([], saveProfile({ displayName: 'x'.repeat(64) }))).toHaveLength(1);
      expect(when([], saveProfile({ displayName: 'x' }))).toHaveLength(1);
    });

    it('refuses a bio longer than 500 characters', () => {
      const error = errorOf(() => when([], saveProfile({ bio: 'b'.repeat(501) })));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/bio/);
      expect(when([], saveProfile({ bio: 'b'.repeat(500) }))).toHaveLength(1);
    });

    it.each(['ftp://acme.example', 'javascript:alert(1)', 'not a url', 'acme.example'])('refuses the website %s', (website) => {
      const error = errorOf(() => when([], saveProfile({ website })));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/website/);
    });

    it('accepts http and https websites, and no website', () => {
      expect(when([], saveProfile({ website: 'http://acme.example/about' }))).toHaveLength(1);
      expect(when([], saveProfile({ website: null }))).toHaveLength(1);
    });

    it('lapses a verified domain when the website moves to another host', () => {
      const events = when(domainVerified, saveProfile({ website: 'https://other.example' }, at(30)));
      expect(events.map((e) => e.type)).toEqual(['VendorProfileSaved', 'VendorDomainVerificationLapsed']);
      expect(events[1]).toEqual({
        type: 'VendorDomainVerificationLapsed',
        data: { vendorId, host: 'acme.example', reason: 'website changed', lapsedAt: at(30).toISOString() },
      });
      expect(fold([...domainVerified, ...events])).toMatchObject({
        website: 'https://other.example',
        domain: null,
      });
    });

    it('lapses a verified domain when the website is removed', () => {
      const events = when(domainVerified, saveProfile({ website: null }, at(30)));
      expect(events.map((e) => e.type)).toEqual(['VendorProfileSaved', 'VendorDomainVerificationLapsed']);
    });

    it('keeps a verified domain when the website changes but its host does not', () => {
      const events = when(domainVerified, saveProfile({ website: 'http://ACME.example/products?x=1' }, at(30)));
      expect(events.map((e) => e.type)).toEqual(['VendorProfileSaved']);
      expect(fold([...domainVerified, ...events])).toMatchObject({ domain: { host: 'acme.example', verified: true } });
    });

    it('emits no lapse when the domain was only challenged, not verified', () => {
      const events = when(challenged, saveProfile({ website: 'https://other.example' }, at(30)));
      expect(events.map((e) => e.type)).toEqual(['VendorProfileSaved']);
    });
  });

  describe('domain verification', () => {
    it('issues a challenge for the website host', () => {
      expect(when(profile, { type: 'IssueDomainChallenge', token: 'token-1', now: at(10) })).toEqual([
        {
          type: 'VendorDomainChallengeIssued',
          data: { vendorId, host: 'acme.example', token: 'token-1', issuedAt: at(10).toISOString() },
        },
      ]);
      expect(fold(challenged)).toMatchObject({ domain: { host: 'acme.example', token: 'token-1', verified: false } });
    });

    it('needs a website to issue a challenge (422)', () => {
      const noWebsite = then([], saveProfile({ website: null }));
      const error = errorOf(() => when(noWebsite, { type: 'IssueDomainChallenge', token: 't', now: at(10) }));
      expect(error.code).toBe('unprocessable');
    });

    it('is idempotent for the same host: the first token stays', () => {
      expect(when(challenged, { type: 'IssueDomainChallenge', token: 'token-2', now: at(15) })).toEqual([]);
      expect(when(domainVerified, { type: 'IssueDomainChallenge', token: 'token-2', now: at(25) })).toEqual([]);
    });

    it('issues a new token once the website moved to a new host', () => {
      const moved = then(challenged, saveProfile({ website: 'https://new.example' }, at(30)));
      const events = when(moved, { type: 'IssueDomainChallenge', token: 'token-2', now: at(40) });
      expect(events).toEqual([
        {
          type: 'VendorDomainChallengeIssued',
          data: { vendorId, host: 'new.example', token: 'token-2', issuedAt: at(40).toISOString() },
        },
      ]);
      expect(fold([...moved, ...events])).toMatchObject({ domain: { host: 'new.example', token: 'token-2', verified: false } });
    });

    it('confirms the challenged host', () => {
      expect(when(challenged, { type: 'ConfirmDomain', host: 'acme.example', now: at(20) })).toEqual([
        { type: 'VendorDomainVerified', data: { vendorId, host: 'acme.example', verifiedAt: at(20).toISOString() } },
      ]);
      expect(fold(domainVerified)).toMatchObject({ domain: { verified: true } });
    });

    it('confirms only the challenged host', () => {
      expect(when(challenged, { type: 'ConfirmDomain', host: 'evil.example', now: at(20) })).toEqual([]);
      expect(when(profile, { type: 'ConfirmDomain', host: 'acme.example', now: at(20) })).toEqual([]);
    });

    it('confirms only once', () => {
      expect(when(domainVerified, { type: 'ConfirmDomain', host: 'acme.example', now: at(30) })).toEqual([]);
    });

    // A record left on the old host must not verify the vendor again once its website moved.
    it('does not verify a host that is no longer the website host', () => {
      const moved = then(domainVerified, saveProfile({ website: 'https://other.example' }, at(30)));
      expect(when(moved, { type: 'ConfirmDomain', host: 'acme.example', now: at(40) })).toEqual([]);
    });

    it('lapses a verified domain', () => {
      expect(when(domainVerified, { type: 'LapseDomain', reason: 'record missing', now: at(50) })).toEqual([
        {
          type: 'VendorDomainVerificationLapsed',
          data: { vendorId, host: 'acme.example', reason: 'record missing', lapsedAt: at(50).toISOString() },
        },
      ]);
    });

    it('lapses only a verified domain', () => {
      expect(when(profile, { type: 'LapseDomain', reason: 'r', now: at(50) })).toEqual([]);
      expect(when(challenged, { type: 'LapseDomain', reason: 'r', now: at(50) })).toEqual([]);
      const lapsed = then(domainVerified, { type: 'LapseDomain', reason: 'r', now: at(50) });
      expect(when(lapsed, { type: 'LapseDomain', reason: 'r', now: at(60) })).toEqual([]);
    });

    it('can verify the same host again after a lapse', () => {
      const lapsed = then(domainVerified, { type: 'LapseDomain', reason: 'r', now: at(50) });
      expect(when(lapsed, { type: 'ConfirmDomain', host: 'acme.example', now: at(60) }).map((e) => e.type)).toEqual([
        'VendorDomainVerified',
      ]);
    });
  });

  describe('GitHub verification', () => {
    it('starts a verification', () => {
      expect(githubStarted.slice(profile.length)).toEqual([
        {
          type: 'VendorGithubVerificationStarted',
          data: { vendorId, org: 'acme', stateHash, expiresAt: at(600).toISOString() },
        },
      ]);
      expect(fold(githubStarted)).toMatchObject({ pendingGithub: { org: 'acme', stateHash, expiresAt: at(600).toISOString() } });
    });

    it('completes with the right state hash before expiry', () => {
      expect(when(githubStarted, complete(at(60)))).toEqual([
        {
          type: 'VendorGithubVerified',
          data: { vendorId, org: 'acme', login: 'octocat', accessToken: 'gho_secret', verifiedAt: at(60).toISOString() },
        },
      ]);
      expect(fold(githubVerified)).toMatchObject({ pendingGithub: null, github: { org: 'acme', verified: true } });
    });

    it('refuses a wrong state hash', () => {
      expect(errorOf(() => when(githubStarted, complete(at(60), 'b'.repeat(64)))).code).toBe('invalid');
    });

    it('refuses an expired state, including exactly at expiry', () => {
      expect(errorOf(() => when(githubStarted, complete(at(600)))).code).toBe('invalid');
      expect(errorOf(() => when(githubStarted, complete(at(601)))).code).toBe('invalid');
      expect(when(githubStarted, complete(at(599)))).toHaveLength(1);
    });

    it('refuses a state already used by a completion', () => {
      expect(errorOf(() => when(githubVerified, complete(at(70)))).code).toBe('invalid');
    });

    it('records a failure, which uses the state up', () => {
      const fail: VendorCommand = { type: 'FailGithubVerification', stateHash, reason: 'not an admin', now: at(60) };
      expect(when(githubStarted, fail)).toEqual([
        {
          type: 'VendorGithubVerificationFailed',
          data: { vendorId, org: 'acme', reason: 'not an admin', failedAt: at(60).toISOString() },
        },
      ]);
      const failed = then(githubStarted, fail);
      expect(fold(failed)).toMatchObject({ pendingGithub: null, github: null });
      expect(errorOf(() => when(failed, complete(at(70)))).code).toBe('invalid');
      expect(errorOf(() => when(failed, { ...fail, now: at(70) })).code).toBe('invalid');
    });

    it('refuses to complete when nothing was started', () => {
      expect(errorOf(() => when(profile, complete(at(60)))).code).toBe('invalid');
    });

    it('replaces a pending verification when started again', () => {
      const restarted = then(githubStarted, {
        type: 'StartGithubVerification',
        org: 'acme-2',
        stateHash: 'c'.repeat(64),
        expiresAt: at(900),
      });
      expect(errorOf(() => when(restarted, complete(at(60)))).code).toBe('invalid');
      expect(when(restarted, complete(at(60), 'c'.repeat(64)))).toEqual([
        expect.objectContaining({ type: 'VendorGithubVerified', data: expect.objectContaining({ org: 'acme-2' }) }),
      ]);
    });

    it('lapses a verified GitHub proof', () => {
      expect(when(githubVerified, { type: 'LapseGithub', reason: 'no longer admin', now: at(100) })).toEqual([
        {
          type: 'VendorGithubVerificationLapsed',
          data: { vendorId, org: 'acme', reason: 'no longer admin', lapsedAt: at(100).toISOString() },
        },
      ]);
      const lapsed = then(githubVerified, { type: 'LapseGithub', reason: 'r', now: at(100) });
      expect(fold(lapsed)).toMatchObject({ github: { org: 'acme', verified: false } });
    });

    it('lapses only a verified GitHub proof', () => {
      expect(when(profile, { type: 'LapseGithub', reason: 'r', now: at(100) })).toEqual([]);
      expect(when(githubStarted, { type: 'LapseGithub', reason: 'r', now: at(100) })).toEqual([]);
      const lapsed = then(githubVerified, { type: 'LapseGithub', reason: 'r', now: at(100) });
      expect(when(lapsed, { type: 'LapseGithub', reason: 'r', now: at(110) })).toEqual([]);
    });
  });

  describe('without a profile', () => {
    it.each<VendorCommand>([
      { type: 'IssueDomainChallenge', token: 't', now: t0 },
      { type: 'ConfirmDomain', host: 'acme.example', now: t0 },
      { type: 'LapseDomain', reason: 'r', now: t0 },
      { type: 'StartGithubVerification', org: 'acme', stateHash, expiresAt: at(600) },
      { type: 'CompleteGithubVerification', stateHash, login: 'l', accessToken: 'a', now: t0 },
      { type: 'FailGithubVerification', stateHash, reason: 'r', now: t0 },
      { type: 'LapseGithub', reason: 'r', now: t0 },
    ])('refuses $type with not_found', (command) => {
      expect(errorOf(() => when([], command)).code).toBe('not_found');
    });

    it('ignores events other than VendorProfileSaved when folding', () => {
      const stray: VendorEvent = {
        type: 'VendorDomainVerified',
        data: { vendorId, host: 'acme.example', verifiedAt: t0.toISOString() },
      };
      expect(fold([stray])).toEqual({ exists: false });
    });
  });
});
