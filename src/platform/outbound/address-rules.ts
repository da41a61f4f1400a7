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

/**
 * The rule for a resolved name, at registration and on every connection alike: a name is judged by every
 * address it resolves to, so one inward answer among public ones is refused. Answers the first such address.
 */
export function inwardAddress(addresses: readonly string[]): string | undefined {
  return addresses.find((address) => !isPublicAddress(address));
}

/** Why a name was refused, in the words both the registration check and the connection guard use. */
export const resolvesInward = (host: string, address: string): string =>
  `${host} resolves to ${address}, a private, loopback or link-local address`;

/** How a vendor learns that the refusal is a setting of the service, not of their endpoint. */
export const PRIVATE_ENDPOINTS_HINT =
  'the service allows those only with ALLOW_PRIVATE_SERVICE_ENDPOINTS=true, for tests and local development';

/** The host of a URL without IPv6 brackets. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** `localhost` and its subdomains (RFC 6761), also written fully qualified (`localhost.`). */
const isLocalhostName = (host: string): boolean => {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

/**
 * The registration-time rules that need no lookup: an `https` URL without
 * credentials and, when the host is an address literal or `localhost`, a
 * public one. A name is then resolved (see `checkServiceEndpoint`) and checked
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
  // Checked again by the listing decider; here too, so a URL it would refuse is never looked up.
  if (url.username || url.password) return 'serviceEndpoint must not carry credentials: it is shown publicly';
  if (allowPrivate) return null;
  const host = bareHost(url);
  if (isLocalhostName(host)) return `serviceEndpoint must not point at this machine (${PRIVATE_ENDPOINTS_HINT})`;
  if (isIP(host) && !isPublicAddress(host))
    return `serviceEndpoint must be a public address, not a private, loopback or link-local one (${PRIVATE_ENDPOINTS_HINT})`;
  return null;
}
