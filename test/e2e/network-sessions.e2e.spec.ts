import { randomUUID } from 'node:crypto';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { FakeService, startFakeService, PATIENT } from '../support/fake-services';
import { json } from '../support/http';

describe('agent network sessions and messages', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendorCaller: Caller;
  let vendor: SeedVendor;
  let https: FakeService;
  let mcp: FakeService;

  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true', ...PATIENT } });
    seed = await CatalogSeed.for(app);
    vendorCaller = await newCaller(app);
    vendor = await seed.vendor(`net-${randomUUID().slice(0, 8)}`, { id: vendorCaller.userId });
    https = await startFakeService('https');
    mcp = await startFakeService('mcp-streamable');
  });
  afterAll(async () => {
    await https.close();
    await mcp.close();
    await app.close();
  });

  async function listing(service: FakeService, protocol: 'https' | 'mcp') {
    const slug = `agent-${randomUUID().slice(0, 8)}`;
    await seed.listing({
      vendor,
      slug,
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: protocol,
        serviceTransport: protocol === 'mcp' ? 'streamable_http' : null,
      },
    });
    return slug;
  }

  it('opens a session, delivers messages to an https service and returns its replies; both sides read them', async () => {
    const slug = await listing(https, 'https');
    const buyer = await newCaller(app);
    const opened = await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug, intent: 'buy a quote' });
    expect(opened.status).toBe(201);
    const { session, listingId } = await json(opened);
    expect(session).toEqual({
      id: expect.any(String),
      status: 'open',
      protocol: 'https',
      transport: null,
      createdAt: expect.any(String),
    });
    expect(listingId).toEqual(expect.any(String));

    const sent = await buyer.call('POST', `/v1/network/sessions/${session.id}/messages`, {
      type: 'quote.request',
      correlationId: 'c-1',
      payload: { item: 'widget' },
    });
    expect(sent.status).toBe(200);
    const answer = await json(sent);
    expect(answer).toEqual({
      sent: { id: expect.any(String), type: 'quote.request', deliveryStatus: 'delivered' },
      responses: [{ id: expect.any(String), type: 'quote.request.reply', payload: { got: { item: 'widget' } } }],
    });

    const { messages } = await json(await buyer.call('GET', `/v1/network/sessions/${session.id}/messages`));
    expect(messages.map((m: { messageType: string; direction: string }) => [m.messageType, m.direction])).toEqual([
      ['intent.open', 'outbound'],
      ['intent.open.reply', 'inbound'],
      ['quote.request', 'outbound'],
      ['quote.request.reply', 'inbound'],
    ]);
    expect(messages[2]).toEqual({
      id: answer.sent.id,
      direction: 'outbound',
      messageType: 'quote.request',
      correlationId: 'c-1',
      deliveryStatus: 'delivered',
      createdAt: expect.any(String),
      payload: { item: 'widget' },
    });
    const after = await json(
      await buyer.call('GET', `/v1/network/sessions/${session.id}/messages?after=${answer.sent.id}&limit=1`),
    );
    expect(after.messages.map((m: { id: string }) => m.id)).toEqual([answer.responses[0].id]);

    expect(await json(await buyer.call('GET', `/v1/network/sessions/${session.id}`))).toEqual({
      session: expect.objectContaining({ id: session.id, status: 'open' }),
      role: 'buyer',
      listingId,
      listingSlug: slug,
      vendorSlug: vendor.slug,
    });
    expect((await json(await vendorCaller.call('GET', `/v1/network/sessions/${session.id}`))).role).toBe('vendor');
    expect((await json(await vendorCaller.call('GET', `/v1/network/sessions/${session.id}/messages`))).messages).toHaveLength(4);

    const inbox = await json(await vendorCaller.call('GET', '/v1/network/inbox'));
    expect(inbox.sessions).toContainEqual({ session: expect.objectContaining({ id: session.id }), listingSlug: slug, listingId });
  });

  it('leaves messages for services that take none in the inbox as stored', async () => {
    const slug = await listing(mcp, 'mcp');
    const buyer = await newCaller(app);
    const { session } = await json(await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug }));
    const answer = await json(
      await buyer.call('POST', `/v1/network/sessions/${session.id}/messages`, { type: 'quote.request', payload: {} }),
    );
    expect(answer).toEqual({ sent: { id: expect.any(String), type: 'quote.request', deliveryStatus: 'stored' }, responses: [] });
  });

  it('answers 404 to a stranger, 403 to the vendor sending, and 409 after close (which is idempotent)', async () => {
    const slug = await listing(https, 'https');
    const buyer = await newCaller(app);
    const stranger = await newCaller(app);
    const { session } = await json(await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug }));
    expect((await stranger.call('GET', `/v1/network/sessions/${session.id}`)).status).toBe(404);
    expect((await stranger.call('GET', `/v1/network/sessions/${session.id}/messages`)).status).toBe(404);
    expect(
      (await stranger.call('POST', `/v1/network/sessions/${session.id}/messages`, { type: 'a.b', payload: {} })).status,
    ).toBe(404);
    expect((await stranger.call('POST', `/v1/network/sessions/${session.id}/close`)).status).toBe(404);
    expect(
      (await vendorCaller.call('POST', `/v1/network/sessions/${session.id}/messages`, { type: 'a.b', payload: {} })).status,
    ).toBe(403);

    const closed = await vendorCaller.call('POST', `/v1/network/sessions/${session.id}/close`);
    expect(closed.status).toBe(200);
    expect(await json(closed)).toEqual({ ok: true, session: { id: session.id, status: 'closed' } });
    expect(await json(await buyer.call('POST', `/v1/network/sessions/${session.id}/close`))).toEqual({
      ok: true,
      session: { id: session.id, status: 'closed' },
    });
    expect((await buyer.call('POST', `/v1/network/sessions/${session.id}/messages`, { type: 'a.b', payload: {} })).status).toBe(
      409,
    );
    expect((await json(await buyer.call('GET', `/v1/network/sessions/${session.id}`))).session.status).toBe('closed');
    const inbox = await json(await vendorCaller.call('GET', '/v1/network/inbox'));
    expect(inbox.sessions.map((s: { session: { id: string } }) => s.session.id)).not.toContain(session.id);
  });

  it('validates: unknown listing 404, pay_mpp 422, bad message type or payload 400', async () => {
    const buyer = await newCaller(app);
    expect((await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug: 'nope' })).status).toBe(404);
    const slug = await listing(https, 'https');
    expect(
      (await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug, settlementMethod: 'pay_mpp' })).status,
    ).toBe(422);
    const { session } = await json(
      await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug, settlementMethod: 'wallet' }),
    );
    const send = (body: unknown) => buyer.call('POST', `/v1/network/sessions/${session.id}/messages`, body);
    expect((await send({ type: 'bad type', payload: {} })).status).toBe(400);
    expect((await send({ type: 'x'.repeat(65), payload: {} })).status).toBe(400);
    expect((await send({ type: 'a.b', payload: [] })).status).toBe(400);
    expect((await send({ type: 'a.b', payload: { big: 'x'.repeat(70_000) } })).status).toBe(400);
    expect((await buyer.call('GET', `/v1/network/sessions/${session.id}/messages?limit=201`)).status).toBe(400);
    expect((await buyer.call('GET', `/v1/network/sessions/not-a-uuid`)).status).toBe(404);
  });

  it('refuses terminal control characters in an intent (400 naming it, no session opened) and keeps line breaks and tabs', async () => {
    const buyer = await newCaller(app);
    const slug = await listing(https, 'https');
    for (const intent of ['red \u001b[31malert', 'bell \u0007', 'c1 csi \u009b2J', 'osc \u001b]52;c;aGk=\u0007', 'del \u007f']) {
      const refused = await buyer.call('POST', '/v1/network/sessions', { vendor: vendor.slug, slug, intent });
      expect({ intent, status: refused.status }).toEqual({ intent, status: 400 });
      expect((await json(refused)).message).toMatch(/^intent must not contain control characters/);
    }
    const sessionsOf = async () =>
      (await json(await vendorCaller.call('GET', '/v1/network/inbox'))).sessions.filter(
        (s: { listingSlug: string }) => s.listingSlug === slug,
      );
    expect(await sessionsOf()).toEqual([]);
    const opened = await buyer.call('POST', '/v1/network/sessions', {
      vendor: vendor.slug,
      slug,
      intent: 'two\r\nlines\tand a tab',
    });
    expect(opened.status).toBe(201);
    expect(await sessionsOf()).toHaveLength(1);
  });
});
