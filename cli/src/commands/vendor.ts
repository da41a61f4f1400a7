import { createHash, createPrivateKey, createPublicKey, KeyObject, sign } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Command } from 'commander';
import { Api } from '../api';
import { CliError, usageError } from '../errors';
import { colors, emit, keyValues, note, OutputOptions, progressBar } from '../output';
import { packDirectory } from '../publish/pack';
import type { Published, Release, SigningKeyRegistered, UploadedRelease, VendorProfile } from '../types';
import { integer } from './catalog';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PublishOptions extends OutputOptions {
  price: number;
  signKey?: string;
  scanTimeout?: number;
}

export function vendorCommands(program: Command): void {
  program
    .command('publish')
    .description('pack a package folder (or take a .zip), sign it, upload it, wait for the scan and publish it')
    .argument('[source]', 'folder holding manifest.json, or a .zip', '.')
    .option('--price <cents>', 'price in cents (0 = free)', integer(0), 0)
    .option('--sign-key <pem>', 'PEM private key (Ed25519 or ECDSA P-256) to sign the archive with')
    .option('--scan-timeout <seconds>', 'how long to wait for the scan (default 300)', integer(1))
    .option('--json', 'machine output on stdout')
    .action(async (source: string, options: PublishOptions) => {
      const api = new Api();
      const { archive, files } = await readSource(source);
      const signature = options.signKey ? signArchive(archive, await readKey(options.signKey, 'private')) : undefined;
      if (!signature)
        note(colors.yellow('Warning: publishing unsigned (pass --sign-key to sign); buyers must pass --allow-unsigned'));
      const form = new FormData();
      form.append('priceCents', String(options.price));
      if (signature) form.append('signature', signature);
      form.append('archive', new Blob([new Uint8Array(archive)], { type: 'application/zip' }), 'package.zip');
      const uploaded = await upload(api, form, archive.length);
      note(`Uploaded ${uploaded.listing.slug}@${uploaded.release.version}; waiting for the scan...`);
      const profile = await api.get<VendorProfile>('/v1/vendor/profile', { auth: true });
      const published = await api.request<Published>('PATCH', `/v1/vendor/releases/${uploaded.release.id}/publish`, {
        auth: true,
      });
      const release = await waitForScan(api, profile.slug, uploaded, (options.scanTimeout ?? 300) * 1000);
      const listingUrl = api.url(`/v1/listings/${profile.slug}/${uploaded.listing.slug}`);
      const result = {
        release: { ...uploaded.release, scanStatus: release.scanStatus, publishedAt: release.publishedAt },
        listing: { ...uploaded.listing, vendorSlug: profile.slug, url: listingUrl },
        version: published.body.version,
        signed: Boolean(signature),
        sha256: createHash('sha256').update(archive).digest('hex'),
        files,
      };
      emit(options, result, () =>
        keyValues([
          ['published', `${profile.slug}/${uploaded.listing.slug}@${published.body.version}`],
          ['scan', release.scanStatus === 'passed' ? colors.green('passed') : colors.yellow(release.scanStatus)],
          ['signed', signature ? 'yes' : colors.yellow('no')],
          ['files', files.length],
          ['listing', listingUrl],
        ]),
      );
    });

  const keys = program.command('keys').description('release-signing keys');
  keys
    .command('register')
    .description("register (or rotate to) the vendor's public signing key")
    .argument('<pem>', 'PEM public key (a private key file works too: its public half is sent)')
    .option('--json', 'machine output on stdout')
    .action(async (file: string, options: OutputOptions) => {
      const key = await readKey(file, 'public');
      const publicKey = key.export({ type: 'spki', format: 'pem' }).toString();
      const fingerprint = createHash('sha256')
        .update(key.export({ type: 'spki', format: 'der' }))
        .digest('hex');
      const answer = await new Api().post<SigningKeyRegistered>('/v1/vendor/keys', { publicKey, fingerprint }, { auth: true });
      emit(
        options,
        answer,
        () => `${answer.action === 'rotate' ? 'Rotated to' : 'Registered'} signing key ${answer.fingerprint}`,
      );
    });
}

async function readSource(source: string): Promise<{ archive: Buffer; files: string[] }> {
  const info = await stat(source).catch(() => null);
  if (!info) throw usageError(`${source} does not exist`);
  if (info.isDirectory()) return packDirectory(source);
  if (!source.endsWith('.zip')) throw usageError(`${source} is neither a folder nor a .zip`);
  return { archive: await readFile(source), files: [] };
}

async function readKey(file: string, want: 'public' | 'private'): Promise<KeyObject> {
  const text = await readFile(path.resolve(file), 'utf8').catch((error: Error) => {
    throw usageError(`Cannot read ${file}: ${error.message}`);
  });
  try {
    if (want === 'private') return createPrivateKey(text);
    // A private key file yields its public half.
    return text.includes('PRIVATE KEY') ? createPublicKey(createPrivateKey(text)) : createPublicKey(text);
  } catch {
    throw usageError(`${file} is not a PEM ${want} key`);
  }
}

/** Base64 detached signature: Ed25519 as is, ECDSA over SHA-256 (DER), as the server verifies. */
function signArchive(archive: Buffer, key: KeyObject): string {
  if (key.asymmetricKeyType === 'ed25519') return sign(null, archive, key).toString('base64');
  if (key.asymmetricKeyType === 'ec') return sign('sha256', archive, key).toString('base64');
  throw usageError('--sign-key must be an Ed25519 or ECDSA P-256 private key');
}

/** Streams the form so the bar follows the bytes actually sent. */
async function upload(api: Api, form: FormData, size: number): Promise<UploadedRelease> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const contentType = encoded.headers.get('content-type')!;
  const bar = progressBar('Uploading', body.length || size);
  let sent = 0;
  const CHUNK = 64 * 1024;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= body.length) {
        controller.close();
        return;
      }
      const chunk = body.subarray(sent, sent + CHUNK);
      sent += chunk.length;
      bar.update(sent);
      controller.enqueue(chunk);
    },
  });
  try {
    return (
      await api.request<UploadedRelease>('POST', '/v1/vendor/releases', {
        auth: true,
        raw: { body: stream, contentType, length: body.length },
      })
    ).body;
  } finally {
    bar.stop();
  }
}

/** Published once the scan passes; a failed scan makes publishing answer 422 with its reasons. */
async function waitForScan(api: Api, vendor: string, uploaded: UploadedRelease, timeoutMs: number): Promise<Release> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { releases } = await api
      .get<{ releases: Release[] }>(`/v1/listings/${vendor}/${uploaded.listing.slug}/releases`, {
        auth: 'optional',
      })
      .catch(() => ({ releases: [] as Release[] }));
    const release = releases.find((r) => r.id === uploaded.release.id);
    if (release) return release;
    // Asking again is idempotent, and it is where a failed scan shows.
    await api.request('PATCH', `/v1/vendor/releases/${uploaded.release.id}/publish`, { auth: true });
    if (Date.now() > deadline)
      throw new CliError(
        `The scan of ${uploaded.listing.slug}@${uploaded.release.version} did not finish in time; it will publish when it passes`,
      );
    await sleep(1000);
  }
}
