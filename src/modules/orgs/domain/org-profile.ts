import { DomainError } from '../../../platform/errors/domain-error';
import { RESERVED_VENDOR_SLUGS, VENDOR_SLUG } from '../../vendors/domain/vendor-profile';

/** Org slugs follow the vendor slug rules and reserved words. */
export const ORG_SLUG = VENDOR_SLUG;
export const ORG_NAME_MAX = 64;

/** The domain's own guard (the DTOs validate first). */
export function checkOrgSlug(slug: string): void {
  if (!ORG_SLUG.test(slug))
    throw new DomainError(
      'invalid',
      'slug must be 2-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
    );
  if (RESERVED_VENDOR_SLUGS.has(slug)) throw new DomainError('invalid', `slug "${slug}" is reserved`);
}

export function checkOrgName(name: string): string {
  const trimmed = name.trim();
  if ([...trimmed].length < 1 || [...trimmed].length > ORG_NAME_MAX)
    throw new DomainError('invalid', `name must be 1-${ORG_NAME_MAX} characters`);
  return trimmed;
}
