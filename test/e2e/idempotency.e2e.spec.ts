import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { ManualClock } from '../../src/platform/clock/clock';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { chargeFunds, ChargesFeatureModule } from '../support/charges-feature';
import { json } from '../support/http';

describe('Idempotency-Key', () => {
  let app: TestApp;
  let caller: Caller;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    app = await startTestApp({ features: [ChargesFeatureModule], clock, env: { IDEMPOTENCY_TTL_HOURS: '24' } });
    caller = await newCaller(app);
  });
  afterAll(() => app.close());

  const charges = async () => (await app.server.app.get(EventStore).readStream('test-charges')).length;
  const charge = (who: Caller, key: string | undefined, body: Record<string, unknown>) =>
    who.call('POST', '/test/charges', body, key === undefined ? {} : { 'idempotency-key': key });

  it('executes once: a retry answers the recorded status and body, marked replayed', async () => {
    const key = randomUUID();
    const before = await charges();
    const first = await charge(caller, key, { amountCents: 500 });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();

    const retry = await charge(caller, key, { amountCents: 500 });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(firstBody);
    expect(await charges()).toBe(before + 1);
  });

  it('treats the body as canonical JSON: the same fields in another order are the same request', async () => {
    const key = randomUUID();
    await charge(caller, key, { amountCents: 700, delayMs: 0 });
    const retry = await charge(caller, key, { delayMs: 0, amountCents: 700 });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the key for a different request with 422, executing nothing', async () => {
    const key = randomUUID();
    await charge(caller, key, { amountCents: 500 });
    const before = await charges();
    const other = await charge(caller, key, { amountCents: 600 });
    expect(other.status).toBe(422);
    expect((await json(other)).message).toMatch(/another request/);
    expect(await charges()).toBe(before);
  });

  it('runs ten concurrent requests with one key once; the others wait (409 with Retry-After) or replay', async () => {
    const key = randomUUID();
    const before = await charges();
    const answers = await Promise.all(Array.from({ length: 10 }, () => charge(caller, key, { amountCents: 900, delayMs: 300 })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.headers.get('retry-after')).toBe('1');
    expect(await charges()).toBe(before + 1);
    const settled = await charge(caller, key, { amountCents: 900, delayMs: 300 });
    expect(settled.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps the recorded answer when the process fails after the append: the retry charges nothing more', async () => {
    const key = randomUUID();
    const before = await charges();
    const crashed = await charge(caller, key, { amountCents: 800, fail: 'crash' });
    expect(crashed.status).toBe(500);
    const retry = await charge(caller, key, { amountCents: 800, fail: 'crash' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(retry)).amountCents).toBe(800);
    expect(await charges()).toBe(before + 1);
  });

  it('records no answer that appended nothing: after a 402 the same key executes once funds are there', async () => {
    const key = randomUUID();
    const before = await charges();
    chargeFunds.available = false;
    const refused = await charge(caller, key, { amountCents: 300, fail: 'insufficient' });
    expect(refused.status).toBe(402);
    chargeFunds.available = true;
    try {
      const paid = await charge(caller, key, { amountCents: 300, fail: 'insufficient' });
      expect(paid.status).toBe(200);
      expect(paid.headers.get('idempotent-replayed')).toBeNull();
      const again = await charge(caller, key, { amountCents: 300, fail: 'insufficient' });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      chargeFunds.available = false;
    }
    expect(await charges()).toBe(before + 1);
  });

  it('belongs to its caller: the same key from another user is unrelated', async () => {
    const key = randomUUID();
    const other = await newCaller(app);
    const before = await charges();
    const mine = await json(await charge(caller, key, { amountCents: 500 }));
    const theirs = await charge(other, key, { amountCents: 500 });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await json(theirs)).chargeId).not.toBe(mine.chargeId);
    expect(await charges()).toBe(before + 2);
  });

  it('expires after IDEMPOTENCY_TTL_HOURS: the key then executes anew', async () => {
    const key = randomUUID();
    const before = await charges();
    await charge(caller, key, { amountCents: 500 });
    clock.advance(23 * 3_600_000);
    expect((await charge(caller, key, { amountCents: 500 })).headers.get('idempotent-replayed')).toBe('true');
    clock.advance(2 * 3_600_000);
    const fresh = await charge(caller, key, { amountCents: 500 });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(await charges()).toBe(before + 2);
    expect((await charge(caller, key, { amountCents: 500 })).headers.get('idempotent-replayed')).toBe('true');
  });

  it('lets a real top-up key be used again after its TTL: a new intent, not a conflict', async () => {
    const key = randomUUID();
    const first = await caller.call('POST', '/v1/wallet/top-up', { amountCents: 600 }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    clock.advance(25 * 3_600_000);
    const again = await caller.call('POST', '/v1/wallet/top-up', { amountCents: 600 }, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await json(again)).clientSecret).not.toBe((await json(first)).clientSecret);
  });

  it.each([
    ['empty', ''],
    ['with a space', 'a key'],
    ['longer than 255 characters', 'k'.repeat(256)],
  ])('refuses a key that is %s with 400', async (_, key) => {
    const answer = await charge(caller, key, { amountCents: 500 });
    expect(answer.status).toBe(400);
    expect((await json(answer)).message).toMatch(/Idempotency-Key/);
  });

  it('accepts 255 visible ASCII characters', async () => {
    const answer = await charge(caller, '~'.repeat(255), { amountCents: 500 });
    expect(answer.status).toBe(200);
  });

  it('leaves requests without the header as they were: each executes', async () => {
    const before = await charges();
    await charge(caller, undefined, { amountCents: 500 });
    await charge(caller, undefined, { amountCents: 500 });
    expect(await charges()).toBe(before + 2);
  });

  it('is declared, with its 409 and 422 answers, on every money route the document has', async () => {
    const document = await json(await fetch(`${app.url}/docs/json`));
    // The list; routes that have not landed yet are checked as soon as they do.
    const moneyRoutes = [
      ['post', '/v1/purchases'],
      ['post', '/v1/wallet/top-up'],
      ['post', '/v1/orgs/{slug}/wallet/top-up'],
      ['post', '/v1/services/{vendor}/{slug}/call'],
      ['post', '/v1/approvals/{id}/approve'],
      ['post', '/v1/billing/setup-intent'],
      ['post', '/v1/billing/card-setup-session'],
    ];
    const present = moneyRoutes.filter(([method, path]) => document.paths[path]?.[method]);
    expect(present.map(([, path]) => path)).toEqual(
      expect.arrayContaining(['/v1/wallet/top-up', '/v1/billing/setup-intent', '/v1/billing/card-setup-session']),
    );
    for (const [method, path] of present) {
      const operation = document.paths[path][method];
      const header = operation.parameters.find(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
      expect({ path, header: header?.schema }).toEqual({ path, header: expect.objectContaining({ maxLength: 255 }) });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']));
    }
  });
});
