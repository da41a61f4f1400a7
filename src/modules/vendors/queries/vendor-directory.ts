/**
 * @deprecated Moved to domain/vendor-profile.ts. Kept only until the catalog
 * module imports the new path; then delete this file.
 */
export { NO_VENDOR_PROFILE } from '../domain/vendor-profile';
