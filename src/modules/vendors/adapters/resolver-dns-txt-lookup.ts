import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { DomainError } from '../../../platform/errors/domain-error';
import { DnsTxtLookup } from '../domain/ports';

// The name (or the asked type) does not exist: an answer, not a failure.
const NO_RECORD_CODES = new Set<string>([dns.NOTFOUND, dns.NODATA]);

/** TXT lookups through Node's resolver: the given servers (`host` or `host:port`), or the system's when none. */
export class ResolverDnsTxtLookup extends DnsTxtLookup {
  private readonly resolver: dns.Resolver;

  constructor(servers: string[]) {
    super();
    this.resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async txtRecords(host: string): Promise<string[]> {
    const name = normalizeHost(host);
    try {
      const records = await this.resolver.resolveTxt(name);
      return records.map((chunks) => chunks.join(''));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      if (NO_RECORD_CODES.has(code)) return [];
      throw new DomainError('unavailable', `The DNS lookup for ${name} failed: ${code}`);
    }
  }
}

/** Lower-cased, without the root dot; refuses IP literals and anything that is not a DNS hostname. */
function normalizeHost(host: string): string {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  if (isIP(name) || isIP(name.replace(/^\[(.*)\]$/, '$1'))) {
    throw new DomainError('invalid', `${host} is an IP address; domain verification needs a hostname`);
  }
  const labels = name.split('.');
  // Underscores are allowed: TXT records often live on names such as _svc-verify.example.com.
  const valid =
    name.length > 0 &&
    name.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label)) &&
    // An all-numeric top label is never a real TLD (and catches forms such as 127.1).
    !/^\d+$/.test(labels[labels.length - 1]);
  if (!valid) throw new DomainError('invalid', `${JSON.stringify(host)} is not a valid hostname`);
  return name;
}
