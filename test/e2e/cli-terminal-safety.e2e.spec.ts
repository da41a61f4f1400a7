import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { CliResult, CliUser } from '../support/cli';
import { PATIENT } from '../support/fake-services';
import { fundWallet } from '../support/wallet';

/** Anything a terminal could act on: C0 controls but tab and line feed, DEL, C1 (U+009B is a CSI). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const TITLE = 'Hostile \x1b[2J\x1b[Htools \x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07listing\x07\x9b31m';
const DESCRIPTION = 'Click \x1b]8;;https://evil.example/\x1b\\here\x1b]8;;\x1b\\ \x1b]0;owned\x07now\rOVERWRITTEN';
const README = '# Readme \x1b[31mred\x1b[0m\x07\r\n\tbody \x9d0;title\x9c';
const RESULT = 'result \x1b]52;c;cm0gLXJmIH4=\x07 \x9b2J \x1b[1A\x1b[2Kred\rOVERWRITTEN';
const FAILURE = 'the tool broke \x1b]8;;https://evil.example/\x07here\x1b]8;;\x07 \x9b2J\x07';

/**
 * A vendor's service whose every answer carries terminal control sequences: the result of `echo`, and the
 * message of `fail` (which the API passes on in its 502).
 */
async function hostileService(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET') return send(200, { tools: [{ name: 'echo' }, { name: 'fail' }] });
      const { tool } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { tool?: string };
      if (tool === 'fail') return send(500, { message: FAILURE });
      send(200, { text: RESULT, nested: { lines: [RESULT] } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('svc prints what vendors wrote without terminal control sequences', () => {
  let app: TestApp;
  let service: Awaited<ReturnType<typeof hostileService>>;
  let ref: string;
  let cli: CliUser;

  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true', ...PATIENT } });
    service = await hostileService();
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`tty-${randomUUID().slice(0, 8)}`);
    const slug = `hostile-${randomUUID().slice(0, 8)}`;
    const { listingId } = await seed.listing({
      vendor,
      slug,
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: 'https',
        pricingModel: 'metered',
        perCallCents: 5,
        settlementMethods: ['wallet'],
      },
    });
    // Stored before the API refused such text; a listing can still carry it.
    await seed.legacyEdit(listingId, { title: TITLE, description: DESCRIPTION, readmeMd: README });
    ref = `${vendor.slug}/${slug}`;
    const buyer = await newCaller(app);
    await fundWallet(app, buyer, 1000);
    cli = await CliUser.create(app.url, { SVC_TOKEN: buyer.token });
  });
  afterAll(async () => {
    await cli?.remove();
    await service?.close();
    await app?.close();
  });

  const expectClean = (result: CliResult) => {
    expect(CONTROL.test(result.stdout)).toBe(false);
    expect(CONTROL.test(result.stderr)).toBe(false);
  };

  it('search and info show titles and descriptions as plain text', async () => {
    const search = await cli.run(['search', 'hostile']);
    expect(search.code).toBe(0);
    expectClean(search);
    expect(search.stdout).toContain('Hostile tools listing');

    const info = await cli.run(['info', ref]);
    expect(info.code).toBe(0);
    expectClean(info);
    expect(info.stdout).toContain('Hostile tools listing');
    expect(info.stdout).toContain('Click here nowOVERWRITTEN');
  });

  it('--json keeps every value, README included, escaped: valid JSON with no control character left raw', async () => {
    const info = await cli.run(['info', ref, '--json']);
    expect(info.code).toBe(0);
    expect(CONTROL.test(info.stdout.replace(/\n/g, ''))).toBe(false);
    expect(info.json().listing).toMatchObject({ title: TITLE, description: DESCRIPTION, readmeMd: README });
  });

  it("a live service's result and its error message are printed as plain text", async () => {
    const call = await cli.run(['call', ref, 'echo', '--input', '{}']);
    expect(call.code).toBe(0);
    expectClean(call);
    // An object result is shown as JSON, whose escapes are plain text; U+009B, which JSON leaves raw, is gone.
    expect(call.stdout).toContain('"text": "result \\u001b]52;c;cm0gLXJmIH4=\\u0007  \\u001b[1A');

    const json = await cli.run(['call', ref, 'echo', '--input', '{}', '--json']);
    expect(json.code).toBe(0);
    expect(CONTROL.test(json.stdout.replace(/\n/g, ''))).toBe(false);
    expect(json.json().result).toEqual({ text: RESULT, nested: { lines: [RESULT] } });

    const failed = await cli.run(['call', ref, 'fail', '--input', '{}']);
    expect(failed.code).toBe(1);
    expectClean(failed);
    expect(failed.stderr).toContain('the tool broke here');
  });
});
