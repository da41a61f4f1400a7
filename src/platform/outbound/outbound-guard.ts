import { lookup as systemLookup, LookupAddress } from 'node:dns';
import { isIP, LookupFunction } from 'node:net';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { inwardAddress, isPublicAddress, resolvesInward } from './address-rules';

/**
 * The resolver of every outbound connection, and of the registration check: the system's (getaddrinfo:
 * the hosts file, then DNS), so both see the same answer. `DNS_SERVERS` is for vendor domain checks only.
 */
export const systemResolver: LookupFunction = systemLookup as LookupFunction;

/** A connection to a vendor's service was refused because its address is private, loopback or link-local. */
export class OutboundAddressRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`Refused to connect to ${host}: ${resolvesInward(host, address)}`);
    this.name = 'OutboundAddressRefusedError';
  }
}

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Every outbound call to a vendor's service goes through `fetch` here. The
 * address is checked at connect time, after DNS resolution, so a name that
 * resolved outward at registration and inward now (DNS rebinding) is refused;
 * the address connected to is the address checked. Redirects are not followed.
 * `ALLOW_PRIVATE_SERVICE_ENDPOINTS=true` lets private addresses through.
 */
@Injectable()
export class OutboundGuard implements OnApplicationShutdown {
  private readonly agent: Agent;
  readonly allowPrivate: boolean;

  constructor(@InjectConfig() config: AppConfig) {
    this.allowPrivate = config.network.allowPrivateServiceEndpoints;
    this.agent = guardedAgent(this.allowPrivate);
  }

  /** `fetch` through the guarded connection pool; for the MCP SDK's transports and the JSON protocols alike. */
  readonly fetch: FetchLike = (url, init) =>
    undiciFetch(url, {
      ...(init as object),
      redirect: 'manual',
      dispatcher: this.agent,
    } as never) as unknown as Promise<Response>;

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

/** An undici Agent whose every connection is to a checked address; `lookup` is replaceable for tests. */
export function guardedAgent(allowPrivate: boolean, lookup: LookupFunction = systemResolver): Agent {
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const all = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as LookupAddress[];
      const refused = allowPrivate ? undefined : inwardAddress(all.map((a) => a.address));
      if (refused) return callback(new OutboundAddressRefusedError(hostname, refused), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, all);
      callback(null, all[0].address, all[0].family);
    });
  };
  const connect = buildConnector({ lookup: checkedLookup, timeout: 10_000 } as buildConnector.BuildOptions);
  return new Agent({
    connect: (options, callback) => {
      // An address literal is connected to without a lookup: check it here.
      const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
      if (!allowPrivate && isIP(host) && !isPublicAddress(host))
        return callback(new OutboundAddressRefusedError(host, host), null);
      connect(options, callback);
    },
  });
}
