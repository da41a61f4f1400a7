const VERIFICATION_PREFIX = 'svc-verify=';

/** The TXT record a vendor publishes on its website's host to prove it controls the domain. */
export function domainVerificationRecord(token: string): string {
  return `${VERIFICATION_PREFIX}${token}`;
}

export function hasVerificationRecord(records: string[], token: string): boolean {
  const expected = domainVerificationRecord(token);
  return records.some((record) => record.trim() === expected);
}
