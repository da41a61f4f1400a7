import { Command, InvalidArgumentError } from 'commander';
import { Api } from '../api';
import { usageError } from '../errors';
import { cents, colors, emit, keyValues, OutputOptions, table } from '../output';
import type { Listing, Release, SearchPage } from '../types';

export const TYPES = ['skill', 'rule', 'bundle', 'template', 'mcp'];
export const TARGETS = ['cursor', 'claude-code', 'codex', 'gemini-cli', 'windsurf', 'generic'];
const SORTS = ['popular', 'recent', 'rated', 'price_asc', 'price_desc', 'trusted'];

export const oneOf = (values: string[]) => (value: string) => {
  if (!values.includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
  return value;
};
export const integer =
  (min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    }
    return Number(value);
  };
const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];

/** `vendor/slug[@version]`, as install, info and call take it. */
export function parsePackageRef(ref: string): { vendor: string; slug: string; version?: string } {
  const match = /^([a-z0-9-]+)\/([a-z0-9][a-z0-9._-]*)(?:@([0-9A-Za-z.+-]+))?$/.exec(ref);
  if (!match) throw usageError(`"${ref}" is not a package: expected <vendor>/<slug> or <vendor>/<slug>@<version>`);
  return { vendor: match[1], slug: match[2], version: match[3] };
}

interface SearchOptions extends OutputOptions {
  type?: string;
  target?: string;
  tag?: string[];
  free?: boolean;
  live?: boolean;
  verified?: boolean;
  sort?: string;
  limit?: number;
  page?: number;
  cursor?: string;
}

export function catalogCommands(program: Command): void {
  program
    .command('search')
    .description('search the marketplace')
    .argument('[words...]', 'full-text query')
    .option('--type <type>', `package type (${TYPES.join('|')})`, oneOf(TYPES))
    .option('--target <agent>', `agent target (${TARGETS.join('|')})`, oneOf(TARGETS))
    .option('--tag <tag>', 'tag (repeatable, or comma-separated)', collect)
    .option('--free', 'only free packages')
    .option('--live', 'only live services')
    .option('--verified', 'only verified vendors')
    .option('--sort <order>', `order (${SORTS.join('|')})`, oneOf(SORTS))
    .option('--limit <n>', 'results per page (1-50)', integer(1, 50))
    .option('--page <n>', 'page number', integer(1))
    .option('--cursor <cursor>', 'continue from a previous nextCursor')
    .option('--json', 'machine output on stdout')
    .action(async (words: string[], options: SearchOptions) => {
      const page = await new Api().get<SearchPage>('/v1/search', {
        query: {
          q: words.join(' ') || undefined,
          type: options.type,
          target: options.target,
          tags: options.tag?.join(','),
          free: options.free ? true : undefined,
          live: options.live ? true : undefined,
          verified: options.verified ? true : undefined,
          sort: options.sort,
          per_page: options.limit,
          page: options.page,
          cursor: options.cursor,
        },
      });
      emit(options, page, () => {
        if (page.results.length === 0) return 'No packages found.';
        const rows = page.results.map((r) => [
          `${r.vendorSlug}/${r.slug}`,
          r.title,
          r.type,
          r.latestVersion,
          r.priceCents === 0 ? colors.green('free') : cents(r.priceCents, r.currency),
          r.svcRating,
          r.installCount,
          r.vendorVerified ? colors.green('yes') : 'no',
        ]);
        const more = page.nextCursor ? `\nMore: svc search ... --cursor ${page.nextCursor}` : '';
        const total = page.total === null ? '' : `\n${page.total} found`;
        return table(['package', 'title', 'type', 'version', 'price', 'rating', 'installs', 'verified'], rows) + total + more;
      });
    });

  program
    .command('info')
    .description('a package: listing, versions, rating, scan result, vendor verification')
    .argument('<package>', '<vendor>/<slug>')
    .option('--json', 'machine output on stdout')
    .action(async (ref: string, options: OutputOptions) => {
      const { vendor, slug } = parsePackageRef(ref);
      if (ref.includes('@')) throw usageError('info takes <vendor>/<slug>, without a version');
      const api = new Api();
      const path = `/v1/listings/${vendor}/${slug}`;
      const [listing, { releases }] = await Promise.all([
        api.get<Listing>(path, { auth: 'optional' }),
        api.get<{ releases: Release[] }>(`${path}/releases`, { auth: 'optional' }),
      ]);
      emit(options, { listing, releases }, () => {
        const v = listing.vendor;
        const latest = releases.find((r) => r.version === listing.latestVersion);
        const verification = v.verified
          ? colors.green(
              `verified (${[v.domainVerified && 'domain', v.githubVerified && `github ${v.githubOrg ?? ''}`.trim()].filter(Boolean).join(', ')})`,
            )
          : colors.yellow('not verified');
        return [
          `${colors.bold(listing.title)}  ${colors.dim(`${listing.vendorSlug}/${listing.slug}`)}`,
          listing.description,
          '',
          keyValues([
            ['type', listing.type],
            ['targets', listing.targets.join(', ') || '-'],
            ['tags', listing.tags.join(', ') || '-'],
            ['price', listing.priceCents === 0 ? 'free' : cents(listing.priceCents, listing.currency)],
            ['rating', `${listing.svcRating} (${listing.ratingCount} reviews)`],
            ['installs', listing.installCount],
            ['vendor', `${v.displayName} (${v.slug}), ${verification}`],
            ['latest', listing.latestVersion ?? '-'],
            ['scan', latest?.scanStatus ?? '-'],
            ['signed', latest ? (latest.signature ? `yes, key ${latest.signingKeyFingerprint}` : colors.yellow('no')) : '-'],
            ['live service', listing.serviceEndpoint ? `${listing.serviceProtocol} ${listing.serviceEndpoint}` : undefined],
          ]),
          '',
          releases.length
            ? table(
                ['version', 'published', 'scan', 'signed', 'sha256'],
                releases.map((r) => [
                  r.version,
                  r.publishedAt,
                  r.scanStatus,
                  r.signature ? 'yes' : 'no',
                  r.archiveSha256.slice(0, 16),
                ]),
              )
            : 'No published releases.',
        ].join('\n');
      });
    });
}
