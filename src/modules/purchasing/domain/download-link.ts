import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../../platform/errors/domain-error';

/** What a download URL carries besides the release in its path; all of it is checked against the signature. */
export interface DownloadLinkParams {
  user: string;
  /** Unix seconds. */
  expires: string;
  signature: string;
}

export interface IssuedDownloadLink {
  url: string;
  expiresAt: string;
}

const EXPIRES = /^\d{1,15}$/;

/**
 * Signed download URLs: `GET <base>/v1/downloads/<releaseId>?user=&expires=&signature=`,
 * where the signature is HMAC-SHA256 over the release, the user it was issued
 * to and the expiry. The signature is the credential (the route takes no
 * token), so changing any of the three, or using the link after it expires, is refused.
 * Pure: the key, the base URL and the time are given.
 */
export class DownloadLinks {
  constructor(
    private readonly key: Buffer,
    private readonly baseUrl: string,
  ) {}

  issue(releaseId: string, userId: string, now: Date, ttlSeconds: number): IssuedDownloadLink {
    const expires = String(Math.floor(now.getTime() / 1000) + ttlSeconds);
    const query = new URLSearchParams({ user: userId, expires, signature: this.sign(releaseId, userId, expires) });
    return {
      url: `${this.baseUrl}/v1/downloads/${encodeURIComponent(releaseId)}?${query}`,
      expiresAt: new Date(Number(expires) * 1000).toISOString(),
    };
  }

  /**
   * Throws 403 unless the link is one this service issued for exactly this
   * release and user and it has not expired. The signature is checked first,
   * so an expiry is only ever reported for a genuine link.
   */
  check(releaseId: string, link: DownloadLinkParams, now: Date): void {
    const expected = Buffer.from(this.sign(releaseId, link.user, link.expires), 'hex');
    const given = /^[0-9a-f]+$/i.test(link.signature) ? Buffer.from(link.signature, 'hex') : Buffer.alloc(0);
    // Constant time over equal lengths; a length mismatch says nothing about the key.
    if (!EXPIRES.test(link.expires) || given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new DomainError(
        'forbidden',
        'This download link is not valid (it was altered or issued for another release or user); ask for a new one with POST /v1/downloads',
      );
    if (now.getTime() >= Number(link.expires) * 1000)
      throw new DomainError('forbidden', 'This download link has expired; ask for a new one with POST /v1/downloads');
  }

  private sign(releaseId: string, userId: string, expires: string): string {
    // Newline-separated: issued parts never hold one, so a part smuggling one in adds a line and can match no issued text.
    return createHmac('sha256', this.key).update(`download:v1\n${releaseId}\n${userId}\n${expires}`).digest('hex');
  }
}

/** `<vendor>-<slug>-<version>.zip`, keeping only characters safe in a header and on every file system. */
export function archiveFileName(vendorSlug: string, listingSlug: string, version: string): string {
  return `${vendorSlug}-${listingSlug}-${version}`.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+/, '') + '.zip';
}
