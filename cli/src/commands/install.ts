import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { Command } from 'commander';
import { Api, notSignedIn } from '../api';
import { currentToken } from '../config';
import { CliError, EXIT, usageError } from '../errors';
import { LockedPackage, lockKey, readLock, writeLock } from '../install/lockfile';
import { chooseTarget, TARGET_DIRECTORIES } from '../install/targets';
import { unpackSafely } from '../install/unpack';
import { checkSignature, sha256Hex } from '../install/verify';
import { cents, colors, emit, note, OutputOptions, progressBar, table } from '../output';
import type { DownloadTicket, Listing, PaymentRequired, PublicSigningKey, PurchaseResult, Release } from '../types';
import { integer, oneOf, parsePackageRef, TARGETS } from './catalog';

const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface InstallOptions extends OutputOptions {
  target?: string;
  maxPrice?: number;
  wallet?: boolean;
  org?: string;
  dir?: string;
  wait?: boolean;
  waitTimeout?: number;
  allowUnsigned?: boolean;
}

export function installCommands(program: Command): void {
  program
    .command('install')
    .description('buy when needed, download, verify (SHA-256 and signature) and unpack a package')
    .argument('<package>', '<vendor>/<slug>[@version]')
    .option('--target <agent>', `agent to install for (${TARGETS.join('|')})`, oneOf(TARGETS))
    .option('--max-price <cents>', 'refuse to pay more than this', integer())
    .option('--wallet', 'pay from the wallet instead of the saved card')
    .option('--org <slug>', "pay from this organization's wallet")
    .option('--dir <path>', 'project directory to install into (default: the current one)')
    .option('--wait', 'when approval is needed, wait for it instead of exiting with code 3')
    .option('--wait-timeout <seconds>', 'how long --wait waits (default 900)', integer(1))
    .option('--allow-unsigned', 'install a release that carries no signature (says so)')
    .option('--json', 'machine output on stdout')
    .action(async (ref: string, options: InstallOptions) => {
      const result = await install(ref, options);
      emit(options, result, () => describeInstall(result));
    });

  program
    .command('list')
    .description('packages installed in this project (from svc-lock.json)')
    .option('--dir <path>', 'project directory (default: the current one)')
    .option('--json', 'machine output on stdout')
    .action(async (options: OutputOptions & { dir?: string }) => {
      const lock = await readLock(projectDir(options.dir));
      const packages = Object.values(lock.packages);
      emit(options, { packages }, () =>
        packages.length === 0
          ? 'No packages installed here.'
          : table(
              ['package', 'version', 'target', 'path', 'signed'],
              packages.map((p) => [
                lockKey(p.vendor, p.slug),
                p.version,
                p.target,
                p.path,
                p.signed ? 'yes' : colors.yellow('no'),
              ]),
            ),
      );
    });

  program
    .command('update')
    .description('install the latest version of installed packages (all, or the ones named)')
    .argument('[packages...]', '<vendor>/<slug>')
    .option('--dir <path>', 'project directory (default: the current one)')
    .option('--max-price <cents>', 'refuse to pay more than this', integer())
    .option('--wallet', 'pay from the wallet instead of the saved card')
    .option('--allow-unsigned', 'accept unsigned releases')
    .option('--json', 'machine output on stdout')
    .action(async (refs: string[], options: InstallOptions) => {
      const dir = projectDir(options.dir);
      const lock = await readLock(dir);
      const keys = refs.length
        ? refs.map((r) => lockKey(parsePackageRef(r).vendor, parsePackageRef(r).slug))
        : Object.keys(lock.packages);
      for (const key of keys) if (!lock.packages[key]) throw usageError(`${key} is not installed here`);
      const api = new Api();
      const updated: InstallResult[] = [];
      const current: string[] = [];
      for (const key of keys) {
        const locked = lock.packages[key];
        const listing = await api.get<Listing>(`/v1/listings/${locked.vendor}/${locked.slug}`, { auth: 'optional' });
        if (!listing.latestVersion || listing.latestVersion === locked.version) {
          current.push(key);
          continue;
        }
        updated.push(
          await install(key, { ...options, target: locked.target, allowUnsigned: options.allowUnsigned || !locked.signed }),
        );
      }
      emit(options, { updated, upToDate: current }, () =>
        [...updated.map(describeInstall), current.length ? `Up to date: ${current.join(', ')}` : ''].filter(Boolean).join('\n'),
      );
    });

  program
    .command('remove')
    .description('delete an installed package and its lock entry')
    .argument('<package>', '<vendor>/<slug>')
    .option('--dir <path>', 'project directory (default: the current one)')
    .option('--json', 'machine output on stdout')
    .action(async (ref: string, options: OutputOptions & { dir?: string }) => {
      const { vendor, slug } = parsePackageRef(ref);
      const dir = projectDir(options.dir);
      const lock = await readLock(dir);
      const locked = lock.packages[lockKey(vendor, slug)];
      if (!locked) throw new CliError(`${vendor}/${slug} is not installed here`);
      const where = path.resolve(dir, locked.path);
      // The lock file is data: never delete outside the project because it says so.
      if (!where.startsWith(path.resolve(dir) + path.sep)) throw new CliError(`svc-lock.json names a path outside ${dir}`);
      await rm(where, { recursive: true, force: true });
      delete lock.packages[lockKey(vendor, slug)];
      await writeLock(dir, lock);
      emit(options, { removed: locked }, () => `Removed ${vendor}/${slug} ${locked.version} from ${locked.path}`);
    });
}

export interface InstallResult {
  installed: LockedPackage;
  files: string[];
  purchase: PurchaseResult | null;
}

const projectDir = (dir?: string) => path.resolve(dir ?? process.cwd());

export async function install(ref: string, options: InstallOptions): Promise<InstallResult> {
  const { vendor, slug, version } = parsePackageRef(ref);
  if (!(await currentToken())) throw notSignedIn();
  const api = new Api();
  const base = `/v1/listings/${vendor}/${slug}`;
  const [listing, { releases }] = await Promise.all([
    api.get<Listing>(base, { auth: 'optional' }),
    api.get<{ releases: Release[] }>(`${base}/releases`, { auth: 'optional' }),
  ]);
  const wanted = version ?? listing.latestVersion ?? releases[0]?.version;
  const release = releases.find((r) => r.version === wanted);
  if (!release) throw new CliError(`${vendor}/${slug} has no published version ${wanted ?? ''}`.trim());
  const target = chooseTarget(options.target, listing.targets);

  const purchase = listing.priceCents > 0 ? await buyIfNeeded(api, listing, release, options) : null;

  const ticket = await api.post<DownloadTicket>('/v1/downloads', { releaseId: release.id }, { auth: true });
  if (ticket.sha256 !== release.archiveSha256) {
    throw new CliError(
      `Refusing to install: the download names SHA-256 ${ticket.sha256}, the release record ${release.archiveSha256}`,
    );
  }
  const archive = await download(ticket.url, `${vendor}/${slug}@${release.version}`);
  const actual = sha256Hex(archive);
  if (actual !== release.archiveSha256) {
    throw new CliError(
      `Refusing to install: the download's SHA-256 is ${actual}, the release record says ${release.archiveSha256}`,
    );
  }
  const { activeKey } = release.signature
    ? await api.get<PublicSigningKey>(`/v1/vendors/${vendor}/signing-key`)
    : { activeKey: null };
  const signature = checkSignature(archive, release, activeKey, Boolean(options.allowUnsigned));
  if (!signature.signed)
    note(colors.yellow(`Warning: ${vendor}/${slug}@${release.version} is unsigned; installing it because of --allow-unsigned`));

  const dir = projectDir(options.dir);
  const relative = TARGET_DIRECTORIES[target](slug);
  const files = await unpackSafely(archive, path.join(dir, relative));
  const installed: LockedPackage = {
    vendor,
    slug,
    version: release.version,
    sha256: actual,
    releaseId: release.id,
    target,
    path: relative.split(path.sep).join('/'),
    signed: signature.signed,
    signingKeyFingerprint: signature.fingerprint,
    installedAt: new Date().toISOString(),
  };
  const lock = await readLock(dir);
  lock.packages[lockKey(vendor, slug)] = installed;
  await writeLock(dir, lock);
  return { installed, files, purchase };
}

async function buyIfNeeded(
  api: Api,
  listing: Listing,
  release: Release,
  options: InstallOptions,
): Promise<PurchaseResult | null> {
  const owned = await api.request('GET', `/v1/entitlements/${listing.id}`, { auth: true, accept: [404] });
  if (owned.status === 200) return null;
  if (options.maxPrice !== undefined && listing.priceCents > options.maxPrice) {
    throw new CliError(
      `${listing.vendorSlug}/${listing.slug} costs ${cents(listing.priceCents)}, more than --max-price ${options.maxPrice}`,
    );
  }
  note(`Buying ${listing.vendorSlug}/${listing.slug} for ${cents(listing.priceCents, listing.currency)}...`);
  const answer = await api.request<PurchaseResult | PaymentRequired>('POST', '/v1/purchases', {
    auth: true,
    accept: [402],
    moneyMove: true,
    body: {
      listingId: listing.id,
      releaseId: release.id,
      maxPriceCents: options.maxPrice,
      useWallet: options.wallet || options.org ? true : undefined,
      orgSlug: options.org,
    },
  });
  if (answer.status !== 402) return answer.body as PurchaseResult;
  const needed = answer.body as PaymentRequired;
  if (needed.status === 'approval_required' && options.wait) {
    note(`Approval needed (${needed.reason ?? needed.message}). Approve at: ${needed.approvalUrl}`);
    await waitForEntitlement(api, listing.id, (options.waitTimeout ?? 900) * 1000);
    return null;
  }
  const hint =
    needed.status === 'approval_required'
      ? `approve it at ${needed.approvalUrl} (or rerun with --wait)`
      : `the wallet holds ${cents(needed.balanceCents)}, the package needs ${cents(needed.requiredCents)}: top up with \`svc wallet top-up <cents>\``;
  throw new CliError(`${needed.message}: ${hint}`, EXIT.paymentNeeded, { httpStatus: 402, ...needed });
}

async function waitForEntitlement(api: Api, listingId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(3000);
    const owned = await api.request('GET', `/v1/entitlements/${listingId}`, { auth: true, accept: [404] });
    if (owned.status === 200) return;
  }
  throw new CliError('Gave up waiting for the approval', EXIT.paymentNeeded);
}

async function download(url: string, label: string): Promise<Buffer> {
  const response = await fetch(url).catch((error: Error) => {
    throw new CliError(`Download failed: ${error.message}`);
  });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let message = text;
    try {
      message = JSON.parse(text).message ?? text;
    } catch {
      // not JSON
    }
    throw new CliError(`Download failed (HTTP ${response.status}): ${message}`);
  }
  const total = Number(response.headers.get('content-length') ?? 0);
  if (total > MAX_DOWNLOAD_BYTES) throw new CliError(`Refusing a download of ${total} bytes (limit ${MAX_DOWNLOAD_BYTES})`);
  const bar = progressBar(`Downloading ${label}`, total);
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      received += chunk.length;
      if (received > MAX_DOWNLOAD_BYTES) throw new CliError(`Refusing a download past ${MAX_DOWNLOAD_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
      bar.update(received);
    }
  } finally {
    bar.stop();
  }
  return Buffer.concat(chunks);
}

function describeInstall(result: InstallResult): string {
  const p = result.installed;
  const bought = result.purchase?.status === 'purchased' ? ` (bought for ${cents(result.purchase.amountCents)})` : '';
  const signed = p.signed ? colors.green(`signed by ${p.signingKeyFingerprint?.slice(0, 16)}`) : colors.yellow('UNSIGNED');
  return `Installed ${colors.bold(`${p.vendor}/${p.slug}@${p.version}`)}${bought} into ${p.path} for ${p.target}: ${result.files.length} files, sha256 ${p.sha256.slice(0, 16)}, ${signed}`;
}
