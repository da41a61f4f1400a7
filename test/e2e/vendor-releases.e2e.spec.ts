import { generateKeyPairSync, sign } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/app';
import { Caller, eventually, newCaller } from '../support/accounts';
import { json } from '../support/http';
import { buildZip } from '../support/zip-builder';

const README = '# PDF tools\n\nExtract text and tables from PDF files.\n\n```sh\nsvc install acme/pdf-tools\n```\n';

function manifest(overrides: Record<string, unknown> = {}) {
  return {
    slug: 'pdf-tools',
    version: '1.0.0',
    type: 'skill',
    title: 'PDF tools',
    description: 'Extract text and tables from PDF documents.',
    targets: ['claude-code', 'cursor'],
    tags: ['pdf', 'documents'],
    tools: ['extract_text'],
    ...overrides,
  };
}

function packageZip(overrides: Record<string, unknown> = {}, extra: { name: string; data: string | Buffer }[] = []): Buffer {
  return buildZip([
    { name: 'manifest.json', data: JSON.stringify(manifest(overrides)), method: 'deflate' },
    { name: 'README.md', data: README, method: 'deflate' },
    { name: 'skills/pdf/SKILL.md', data: 'Use pdftotext to extract the text of a PDF.', method: 'deflate' },
    ...extra,
  ]);
}

function uploadForm(archive: Buffer, fields: Record<string, string> = { priceCents: '0' }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('archive', new Blob([new Uint8Array(archive)], { type: 'application/zip' }), 'package.zip');
  return form;
}

describe('vendors and releases', () => {
  let app: TestApp;
  let vendor: Caller;

  beforeAll(async () => {
    app = await startTestApp({ env: { MAX_ARCHIVE_BYTES: String(2 * 1024 * 1024) } });
    vendor = await newCaller(app);
    const created = await vendor.call('POST', '/v1/vendor/profile', {
      slug: 'acme',
      displayName: 'Acme Tools',
      website: 'https://acme.example.com',
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => app?.close());

  const release = async (id: string) => {
    const [row] = await app.server.app.get(DataSource).query('SELECT * FROM releases WHERE id = $1', [id]);
    return row;
  };

  it('uploads, scans, publishes, and shows the listing and its releases', async () => {
    const uploaded = await vendor.call('POST', '/v1/vendor/releases', uploadForm(packageZip(), { priceCents: '500' }));
    expect(uploaded.status).toBe(201);
    const body = await json(uploaded);
    expect(body).toEqual({
      release: { id: expect.any(String), version: '1.0.0', scanStatus: 'pending', createdAt: expect.any(String) },
      listing: { id: expect.any(String), slug: 'pdf-tools' },
    });

    // A draft is its vendor's alone.
    expect((await fetch(`${app.url}/v1/listings/acme/pdf-tools`)).status).toBe(404);
    const draft = await json(await vendor.call('GET', '/v1/listings/acme/pdf-tools'));
    expect(draft).toMatchObject({ status: 'draft', latestVersion: null, readmeMd: README });

    await eventually(async () => (await release(body.release.id))?.scan_status !== 'pending');
    expect((await release(body.release.id)).scan_status).toBe('passed');

    const published = await vendor.call('PATCH', `/v1/vendor/releases/${body.release.id}/publish`);
    expect(published.status).toBe(200);
    expect(await json(published)).toEqual({ ok: true, version: '1.0.0' });

    const listing = await json(await fetch(`${app.url}/v1/listings/acme/pdf-tools`));
    expect(listing).toMatchObject({
      id: body.listing.id,
      vendorSlug: 'acme',
      slug: 'pdf-tools',
      title: 'PDF tools',
      type: 'skill',
      tags: ['pdf', 'documents'],
      targets: ['claude-code', 'cursor'],
      tools: ['extract_text'],
      priceCents: 500,
      currency: 'usd',
      latestVersion: '1.0.0',
      installCount: 0,
      svcRating: '0.00',
      vendorName: 'Acme Tools',
      vendorVerified: false,
      status: 'published',
      readmeMd: README,
      pricingModel: 'one_time',
    });
    const releases = await json(await fetch(`${app.url}/v1/listings/acme/pdf-tools/releases`));
    expect(releases.releases).toEqual([
      {
        id: body.release.id,
        version: '1.0.0',
        archiveSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        publishedAt: expect.any(String),
      },
    ]);
  });
});
