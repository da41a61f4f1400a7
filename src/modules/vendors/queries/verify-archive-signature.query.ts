/**
 * @deprecated Moved to verify-archive-signature/verify-archive-signature.query.ts.
 * Kept only until the catalog module imports the new path; then delete this file.
 */
export { VerifyArchiveSignatureQuery } from './verify-archive-signature/verify-archive-signature.query';
