import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * Whether an outbound call may reach this address: only public unicast
 * addresses, never loopback, private, link-local, carrier-grade NAT, unique
 * local, multicast or reserved ones. IPv4-mapped IPv6 addresses are judged as
 * the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback too.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The host of a URL without IPv6 brackets. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The registration-time check of a service endpoint: `https` and, when the
 * host is an address literal or `localhost`, a public one. Names are checked
 * again on every connection after resolution (see OutboundGuard), because a
 * name may resolve elsewhere later. Answers why not, or null when fine.
 */
export function endpointRefusal(endpoint: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'serviceEndpoint must be an http(s) URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'serviceEndpoint must be an https URL';
  if (allowPrivate) return null;
  const host = bareHost(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'serviceEndpoint must not point at this machine';
  if (isIP(host) && !isPublicAddress(host))
    return 'serviceEndpoint must be a public address, not a private, loopback or link-local one';
  return null;
}
