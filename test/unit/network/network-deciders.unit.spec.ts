import { serviceStatusOf } from '../../../src/modules/network/domain/probe';
import { CallFacts, serviceCallDecider, ServiceCallState } from '../../../src/modules/network/domain/service-call.decider';
import { sessionDecider, SessionState } from '../../../src/modules/network/domain/session.decider';
import { callCostCents, serviceTermsOf } from '../../../src/modules/network/domain/service-terms';

const now = new Date('2026-11-24T10:00:00.000Z');
const facts: CallFacts = {
  callId: '00000000-0000-4000-8000-000000000001',
  callerId: 'caller',
  listingId: 'listing',
  vendorId: 'vendor',
  tool: 'echo',
  costCents: 25,
  sessionId: null,
};
const fold = <S, E>(decider: { evolve: (s: S, e: E) => S; initialState: S }, events: E[]) =>
  events.reduce(decider.evolve, decider.initialState);

describe('the service call decider', () => {
  it('reserves once, with an id derived from the call', () => {
    const reserved = serviceCallDecider.decide({ type: 'Reserve', facts, settleBy: now, now }, { status: 'none' });
    expect(reserved).toHaveLength(1);
    expect(reserved[0]).toMatchObject({ type: 'ServiceCallReserved', data: { ...facts, settleBy: now.toISOString() } });
    const state = fold(serviceCallDecider, reserved);
    expect(serviceCallDecider.decide({ type: 'Reserve', facts, settleBy: now, now }, state)).toEqual([]);
  });

  it('settles once: a success charges the cost, anything else nothing; a second settlement decides nothing', () => {
    const reserved = fold(
      serviceCallDecider,
      serviceCallDecider.decide({ type: 'Reserve', facts, settleBy: now, now }, { status: 'none' }),
    );
    const [success] = serviceCallDecider.decide(
      { type: 'Settle', outcome: 'success', durationMs: 12, error: null, now },
      reserved,
    );
    expect(success.data).toMatchObject({ outcome: 'success', chargedCents: 25, durationMs: 12 });
    const [failed] = serviceCallDecider.decide(
      { type: 'Settle', outcome: 'timeout', durationMs: 1, error: 'slow', now },
      reserved,
    );
    expect(failed.data).toMatchObject({ outcome: 'timeout', chargedCents: 0, error: 'slow' });
    const settled: ServiceCallState = serviceCallDecider.evolve(reserved, failed);
    expect(settled).toMatchObject({ status: 'settled', outcome: 'timeout' });
    expect(serviceCallDecider.decide({ type: 'Settle', outcome: 'abandoned', durationMs: 0, error: null, now }, settled)).toEqual(
      [],
    );
    expect(
      serviceCallDecider.decide({ type: 'Settle', outcome: 'success', durationMs: 0, error: null, now }, { status: 'none' }),
    ).toEqual([]);
  });
});

describe('the session decider', () => {
  const sessionFacts = {
    sessionId: 's1',
    buyerId: 'b',
    listingId: 'l',
    vendorId: 'v',
    vendorSlug: 'vs',
    listingSlug: 'ls',
    protocol: 'https',
    transport: null,
  };
  const message = {
    messageId: 'm1',
    direction: 'outbound' as const,
    messageType: 'quote.request',
    correlationId: null,
    payload: {},
    deliveryStatus: 'stored' as const,
  };

  it('opens, takes messages while open, closes once, and refuses messages after', () => {
    const open = fold(
      sessionDecider,
      sessionDecider.decide(
        { type: 'Open', facts: sessionFacts, context: null, settlementMethod: null, now },
        { status: 'none' },
      ),
    );
    expect(open).toMatchObject({ status: 'open', messages: 0 });
    const sent = sessionDecider.decide({ type: 'Send', messages: [message], now }, open);
    expect(sent[0]).toMatchObject({ type: 'SessionMessageSent', data: { ...message, sessionId: 's1' } });
    const closed: SessionState = fold(sessionDecider, [
      ...sessionDecider.decide(
        { type: 'Open', facts: sessionFacts, context: null, settlementMethod: null, now },
        { status: 'none' },
      ),
      ...sessionDecider.decide({ type: 'Close', by: 'b', now }, open),
    ]);
    expect(closed.status).toBe('closed');
    expect(sessionDecider.decide({ type: 'Close', by: 'v', now }, closed)).toEqual([]);
    expect(() => sessionDecider.decide({ type: 'Send', messages: [message], now }, closed)).toThrow(/closed/);
    expect(() => sessionDecider.decide({ type: 'Close', by: 'b', now }, { status: 'none' })).toThrow(/not found/);
  });
});

describe('service status from probes (newest first)', () => {
  const ok = (responseMs = 10) => ({ ok: true, responseMs });
  const down = { ok: false, responseMs: 10 };
  it.each([
    [[], 'active'],
    [[ok()], 'active'],
    [[ok(), ok(), ok()], 'active'],
    [[ok(3000)], 'degraded'],
    [[ok(), down, ok()], 'degraded'],
    [[down], 'degraded'],
    [[down, down], 'degraded'],
    [[down, down, down], 'inactive'],
    [[ok(), down, down, down], 'degraded'],
  ])('%j is %s', (probes, status) => {
    expect(serviceStatusOf(probes, 2000)).toBe(status);
  });
});

describe('service terms from the listing stream', () => {
  it('follows the vendor edits; only metered listings cost per call', () => {
    const terms = serviceTermsOf([
      { type: 'ListingCreated', data: { listingId: 'l', vendorId: 'v' } },
      { type: 'ReleasePublished', data: {} },
      {
        type: 'ListingUpdated',
        data: { changes: { serviceEndpoint: 'https://x.example/mcp', serviceProtocol: 'mcp', perCallCents: 7 } },
      },
    ]);
    expect(terms).toMatchObject({ status: 'published', endpoint: 'https://x.example/mcp', protocol: 'mcp', perCallCents: 7 });
    expect(callCostCents(terms!)).toBe(0);
    expect(callCostCents({ ...terms!, pricingModel: 'metered' })).toBe(7);
    expect(serviceTermsOf([])).toBeNull();
  });
});
