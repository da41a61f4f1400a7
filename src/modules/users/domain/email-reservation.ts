import { createHash } from 'node:crypto';

/** Email uniqueness: a reservation stream per address, named by its hash (no plaintext in stream ids). */
export function emailStreamId(email: string): string {
  return `email-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
