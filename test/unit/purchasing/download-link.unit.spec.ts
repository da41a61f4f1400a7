import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../../src/config/app-config';
import { archiveFileName, DownloadLinks } from '../../../src/modules/purchasing/domain/download-link';
import { downloadLinksFor } from '../../../src/modules/purchasing/purchasing.module';
import { DomainError } from '../../../src/platform/errors/domain-error';

describe('signed download links', () => {
  const links = new DownloadLinks(Buffer.from('k3y'), 'https://api.example.com');
  const now = new Date('2026-03-02T10:00:00.500Z');
  const releaseId = '3f1c1a56-5b8e-4a39-9d7e-0c8f0a1b2c3d';
  const userId = '9a2b7c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d';
  const issued = links.issue(releaseId, userId, now, 300);
  const params = () => {
    const url = new URL(issued.url);
    return {
      user: url.searchParams.get('user')!,
      expires: url.searchParams.get('expires')!,
      signature: url.searchParams.get('signature')!,
    };
  };
  const refusal = (run: () => void) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('forbidden');
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('points at the served route under the base URL and expires after the TTL, in whole seconds', () => {
    expect(issued.url).toMatch(
      new RegExp(`^https://api\\.example\\.com/v1/downloads/${releaseId}\\?user=${userId}&expires=\\d+&signature=[0-9a-f]{64}$`),
    );
    expect(issued.expiresAt).toBe('2026-03-02T10:05:00.000Z');
    expect(params().expires).toBe(String(Date.parse(issued.expiresAt) / 1000));
  });

  it('accepts its own link until the expiry, and refuses it from then on', () => {
    expect(refusal(() => links.check(releaseId, params(), new Date('2026-03-02T10:04:59.999Z')))).toBe('accepted');
    expect(refusal(() => links.check(releaseId, params(), new Date(issued.expiresAt)))).toMatch(/expired/);
  });

  it('refuses any change to the release, user, expiry or signature, and another key', () => {
    const other = '00000000-0000-4000-8000-000000000000';
    const at = now;
    expect(refusal(() => links.check(other, params(), at))).toMatch(/not valid/);
    expect(refusal(() => links.check(releaseId, { ...params(), user: other }, at))).toMatch(/not valid/);
    expect(refusal(() => links.check(releaseId, { ...params(), expires: String(Number(params().expires) + 1) }, at))).toMatch(
      /not valid/,
    );
    for (const signature of ['', 'zz', params().signature.slice(2), params().signature.toUpperCase() + '00'])
      expect(refusal(() => links.check(releaseId, { ...params(), signature }, at))).toMatch(/not valid/);
    expect(refusal(() => links.check(releaseId, { ...params(), expires: '1e99' }, at))).toMatch(/not valid/);
    const otherKey = new DownloadLinks(Buffer.from('another'), 'https://api.example.com');
    expect(refusal(() => otherKey.check(releaseId, params(), at))).toMatch(/not valid/);
  });

  it('names the file <vendor>-<slug>-<version>.zip with safe characters only', () => {
    expect(archiveFileName('acme', 'pdf-tools', '1.2.0')).toBe('acme-pdf-tools-1.2.0.zip');
    expect(archiveFileName('acme', 'pdf-tools', '1.2.0-rc.1+build.5')).toBe('acme-pdf-tools-1.2.0-rc.1-build.5.zip');
    expect(archiveFileName('a"b', 'c;d', '1/2\\3')).toBe('a-b-c-d-1-2-3.zip');
  });

  it('keys links with DOWNLOAD_URL_SECRET, or with one key generated once under DATA_DIR', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-downloads-'));
    const config = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: dataDir, BASE_URL: 'https://api.example.com', ...env });
    const verify = (signer: DownloadLinks, by: DownloadLinks) =>
      refusal(() => {
        const link = new URL(signer.issue(releaseId, userId, now, 60).url);
        const get = (name: string) => link.searchParams.get(name)!;
        by.check(releaseId, { user: get('user'), expires: get('expires'), signature: get('signature') }, now);
      });
    const generated = downloadLinksFor(config({}));
    expect(readFileSync(path.join(dataDir, 'download-url.key'), 'utf8').length).toBeGreaterThan(40);
    expect(verify(generated, downloadLinksFor(config({})))).toBe('accepted');
    const configured = downloadLinksFor(config({ DOWNLOAD_URL_SECRET: 'k3y' }));
    expect(verify(configured, links)).toBe('accepted');
    expect(verify(generated, configured)).toMatch(/not valid/);
  });
});
