import { EventStore } from '../../src/event-store/event-store';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';
import { createOrg } from '../support/orgs';

/**
 * One body rule for the JSON API: a body that is not JSON is a 415 naming the type the route takes, on every
 * route, and nothing is applied. Before it, a multipart body was parsed as "no body" and answered 200 unapplied.
 */
describe('request bodies that are not JSON', () => {
  let app: TestApp;
  let owner: Caller;
  let policyId: string;
  let orgSlug: string;

  beforeAll(async () => {
    app = await startTestApp();
    owner = await newCaller(app);
    policyId = (await json(await owner.call('POST', '/v1/policies', { name: 'Agents' }))).id;
    orgSlug = (await createOrg(owner)).slug;
  });
  afterAll(async () => app?.close());

  /** Each route, a change it takes as JSON, and what reads back the field it would change. */
  const routes = (): {
    method: string;
    path: string;
    change: Record<string, string | number>;
    read: () => Promise<unknown>;
  }[] => [
    {
      method: 'PATCH',
      path: '/v1/wallet/auto-top-up',
      change: { thresholdCents: 300 },
      read: async () => (await json(await owner.call('GET', '/v1/wallet'))).autoTopUpThresholdCents,
    },
    {
      method: 'PATCH',
      path: `/v1/policies/${policyId}`,
      change: { name: 'Renamed' },
      read: async () => (await json(await owner.call('GET', '/v1/policies'))).policies[0].name,
    },
    {
      method: 'PATCH',
      path: '/v1/users/me',
      change: { name: 'Renamed' },
      read: async () => (await json(await owner.call('GET', '/v1/users/me'))).user.name,
    },
    {
      method: 'PATCH',
      path: `/v1/orgs/${orgSlug}`,
      change: { name: 'Renamed' },
      read: async () => (await json(await owner.call('GET', `/v1/orgs/${orgSlug}`))).org.name,
    },
    {
      method: 'PATCH',
      path: `/v1/orgs/${orgSlug}/wallet/auto-top-up`,
      change: { thresholdCents: 300 },
      read: async () => (await json(await owner.call('GET', `/v1/orgs/${orgSlug}/wallet`))).autoTopUpThresholdCents,
    },
    {
      method: 'POST',
      path: '/v1/auth/device/start',
      change: { clientName: 'sneaky client' },
      read: () => deviceCodesIssuedSince(start),
    },
  ];

  const store = () => app.server.app.get(EventStore);
  let start: Awaited<ReturnType<EventStore['headPosition']>> = null;
  /** The device flows started since `from`: POST /v1/auth/device/start reads nothing back otherwise. */
  const deviceCodesIssuedSince = async (from: typeof start) =>
    (await store().readAll({ after: from ?? undefined, maxCount: 10_000 })).filter((e) => e.type === 'DeviceCodeIssued').length;

  /** The same change in three bodies that are not JSON: multipart, text/plain (JSON text, even), and no content type. */
  const notJson = (change: Record<string, string | number>): [string, RequestInit['body'], Record<string, string>][] => {
    const form = new FormData();
    for (const [field, value] of Object.entries(change)) form.append(field, String(value));
    return [
      ['multipart/form-data', form, {}],
      ['text/plain', JSON.stringify(change), { 'content-type': 'text/plain' }],
      // fetch sends a byte body with no content type at all.
      ['no content type', new TextEncoder().encode(JSON.stringify(change)), {}],
    ];
  };

  it('answers 415 naming application/json on each route, and applies nothing', async () => {
    start = await store().headPosition();
    for (const route of routes()) {
      const before = await route.read();
      for (const [label, body, headers] of notJson(route.change)) {
        const response = await fetch(`${app.url}${route.path}`, {
          method: route.method,
          headers: { authorization: `Bearer ${owner.token}`, ...headers },
          body,
        });
        const answer = await json(response);
        expect({ route: route.path, label, status: response.status }).toEqual({ route: route.path, label, status: 415 });
        expect(answer).toEqual({ message: expect.stringContaining('application/json') });
        expect({ route: route.path, label, after: await route.read() }).toEqual({ route: route.path, label, after: before });
      }
    }
  });

  it('applies the same changes sent as JSON (so the refusals above are what kept them out)', async () => {
    start = await store().headPosition();
    for (const route of routes()) {
      const response = await owner.call(route.method, route.path, route.change);
      expect({ route: route.path, status: response.status }).toEqual({ route: route.path, status: 200 });
      expect(await route.read()).toEqual(route.path.endsWith('/device/start') ? 1 : Object.values(route.change)[0]);
    }
  });

  it('refuses a multipart body on a route that takes no body too, and one on a route that does not exist is a 404', async () => {
    const form = new FormData();
    form.append('anything', 'x');
    const bodyless = await owner.call('POST', '/v1/auth/token/revoke', form);
    expect(bodyless.status).toBe(415);
    expect((await json(bodyless)).message).toMatch(/application\/json/);
    // The token was not revoked.
    expect((await owner.call('GET', '/v1/wallet')).status).toBe(200);
    expect((await owner.call('POST', '/v1/no-such-route', form)).status).toBe(404);
  });
});
