import { DomainError } from '../../../platform/errors/domain-error';

export const VENDOR_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])$/;

/** Slugs that would read as the service itself or collide with its paths. */
export const RESERVED_VENDOR_SLUGS = new Set([
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'docs',
  'help',
  'health',
  'login',
  'logout',
  'me',
  'new',
  'null',
  'official',
  'root',
  'search',
  'settings',
  'signup',
  'static',
  'status',
  'support',
  'svc',
  'system',
  'undefined',
  'v1',
  'v2',
  'vendor',
  'vendors',
  'www',
]);

/** The 403 every vendor endpoint gives a user without a profile (the catalog's vendor routes too). */
export const NO_VENDOR_PROFILE = 'This endpoint needs a vendor profile: create one with POST /v1/vendor/profile';

export type VendorProfileFields = {
  slug: string;
  displayName: string;
  bio: string | null;
  website: string | null;
};

/** The domain's own guard on profile fields (the HTTP layer validates first). */
export function checkVendorProfile(fields: VendorProfileFields): void {
  if (!VENDOR_SLUG.test(fields.slug))
    throw new DomainError(
      'invalid',
      'slug must be 2-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
    );
  if (RESERVED_VENDOR_SLUGS.has(fields.slug)) throw new DomainError('invalid', `slug "${fields.slug}" is reserved`);
  const name = fields.displayName.trim();
  if (name.length < 1 || name.length > 64) throw new DomainError('invalid', 'displayName must be 1-64 characters');
  if (fields.bio !== null && fields.bio.length > 500) throw new DomainError('invalid', 'bio must be at most 500 characters');
  if (fields.website !== null) websiteHost(fields.website);
}

/** The host a domain verification proves, from an http(s) website address. */
export function websiteHost(website: string): string {
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    throw new DomainError('invalid', 'website must be a valid http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DomainError('invalid', 'website must be a valid http(s) URL');
  return url.hostname.toLowerCase();
}
