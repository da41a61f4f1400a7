import { LookupAddress } from 'node:dns';
import { isIP, LookupFunction } from 'node:net';
import { DomainError } from '../errors/domain-error';
import { bareHost, endpointRefusal, inwardAddress, PRIVATE_ENDPOINTS_HINT, resolvesInward } from './address-rules';
import { systemResolver } from './outbound-guard';

/** How long registration waits for the resolver before it answers that the name did not resolve. */
export const ENDPOINT_LOOKUP_TIMEOUT_MS = 5_000;

/**
 * Whether a vendor may register `endpoint` as a live service. Besides the rules
 * that need no lookup (`endpointRefusal`), a name is resolved as every
 * connection to it will be (the system resolver, which reads the hosts file)
 * and judged by the connection guard's rule, so a name this machine maps to
 * loopback is refused now rather than on every call. With
 * `ALLOW_PRIVATE_SERVICE_ENDPOINTS` nothing is looked up: no address is
 * refused. Throws 400 for a refused address and 422 for a name that does not
 * resolve (it could serve no call; register it once its DNS records are live).
 * The guard still checks every connection: a name may resolve elsewhere later.
 */
export async function checkServiceEndpoint(
  endpoint: string,
  options: { allowPrivate: boolean; lookup?: LookupFunction; timeoutMs?: number },
): Promise<void> {
  const refusal = endpointRefusal(endpoint, options.allowPrivate);
  if (refusal) throw new DomainError('invalid', refusal);
  if (options.allowPrivate) return;
  const host = bareHost(new URL(endpoint));
  if (isIP(host)) return; // judged above, without a lookup, as the guard judges it
  const answer = await resolveAll(host, options.lookup ?? systemResolver, options.timeoutMs ?? ENDPOINT_LOOKUP_TIMEOUT_MS);
  if ('failure' in answer)
    throw new DomainError(
      'unprocessable',
      `serviceEndpoint's host ${host} ${answer.failure}: check the name, or register it once its DNS records are live`,
    );
  const inward = inwardAddress(answer.addresses);
  if (inward)
    throw new DomainError(
      'invalid',
      `serviceEndpoint must be a public address: ${resolvesInward(host, inward)} (${PRIVATE_ENDPOINTS_HINT})`,
    );
}

/** Every address `host` resolves to, or why there is none. */
function resolveAll(
  host: string,
  lookup: LookupFunction,
  timeoutMs: number,
): Promise<{ addresses: string[] } | { failure: string }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ failure: `did not resolve within ${timeoutMs / 1000} s` }), timeoutMs);
    timer.unref();
    lookup(host, { all: true }, (error, addresses) => {
      clearTimeout(timer);
      const all = (Array.isArray(addresses) ? addresses : addresses ? [{ address: addresses }] : []) as LookupAddress[];
      if (error || all.length === 0)
        resolve({ failure: `does not resolve${error && 'code' in error && error.code ? ` (${String(error.code)})` : ''}` });
      else resolve({ addresses: all.map((a) => a.address) });
    });
  });
}
