import { loadConfig } from '../../../src/config/app-config';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { domainVerificationRecord, hasVerificationRecord } from '../../../src/modules/vendors/domain/domain-record';
import { DnsTxtLookup } from '../../../src/modules/vendors/domain/ports';
import { dnsTxtLookupFor } from '../../../src/modules/vendors/vendors.module';
import { FakeDns, startFakeDns } from '../../support/fake-dns';

describe('DnsTxtLookup: the resolver adapter (real DNS over loopback)', () => {
  let dns: FakeDns;
  let lookup: DnsTxtLookup;

  beforeAll(async () => {
    dns = await startFakeDns();
    lookup = dnsTxtLookupFor(loadConfig({ NODE_ENV: 'test', DNS_SERVERS: dns.address }));
  });
  afterAll(async () => dns?.close());

  it('returns every TXT record of the host, names matched case-insensitively', async () => {
    dns.setTxt('vendor-a.example', ['v=spf1 -all', domainVerificationRecord('tok-a')]);
    const before = dns.queries;

    const records = await lookup.txtRecords('Vendor-A.Example.');

    expect(records.sort()).toEqual(['svc-verify=tok-a', 'v=spf1 -all']);
    expect(hasVerificationRecord(records, 'tok-a')).toBe(true);
    expect(hasVerificationRecord(records, 'tok-b')).toBe(false);
    expect(dns.queries).toBeGreaterThan(before);
  });

  it('joins a record split into several character-strings', async () => {
    const token = 'x'.repeat(300); // over 255 bytes: the server sends it as two strings
    dns.setTxt('vendor-b.example', [domainVerificationRecord(token)]);

    const records = await lookup.txtRecords('vendor-b.example');

    expect(records).toEqual([`svc-verify=${token}`]);
    expect(hasVerificationRecord(records, token)).toBe(true);
  });

  it('follows a truncated UDP answer over TCP', async () => {
    const values = Array.from({ length: 8 }, (_, i) => `filler-${i}-${'y'.repeat(200)}`);
    dns.setTxt('vendor-big.example', [...values, domainVerificationRecord('tok-big')]);
    const tcpBefore = dns.tcpQueries;

    const records = await lookup.txtRecords('vendor-big.example');

    expect(records).toHaveLength(9);
    expect(hasVerificationRecord(records, 'tok-big')).toBe(true);
    expect(dns.tcpQueries).toBeGreaterThan(tcpBefore);
  });

  it('sees a removed record as gone, and an unknown host as having none', async () => {
    dns.setTxt('vendor-c.example', [domainVerificationRecord('tok-c')]);
    expect(await lookup.txtRecords('vendor-c.example')).toEqual(['svc-verify=tok-c']);

    dns.remove('vendor-c.example');

    expect(await lookup.txtRecords('vendor-c.example')).toEqual([]);
    expect(await lookup.txtRecords('nobody-here.example')).toEqual([]);
  });

  it('reports a server failure or refusal as unavailable, not as a missing record', async () => {
    dns.setTxt('vendor-d.example', [domainVerificationRecord('tok-d')]);
    dns.failWith('vendor-d.example', 'SERVFAIL');
    await expect(lookup.txtRecords('vendor-d.example')).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The DNS lookup for vendor-d.example failed: ESERVFAIL',
    });

    dns.failWith('vendor-d.example', 'REFUSED');
    await expect(lookup.txtRecords('vendor-d.example')).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The DNS lookup for vendor-d.example failed: EREFUSED',
    });

    dns.failWith('vendor-d.example', null);
    expect(await lookup.txtRecords('vendor-d.example')).toEqual(['svc-verify=tok-d']);
  });

  it('refuses IP literals and malformed hostnames without querying', async () => {
    const before = dns.queries;
    for (const host of ['127.0.0.1', '::1', '[::1]', '10.1', 'localhost', 'bad_host..example', '-a.example', 'a b.example', '']) {
      const error = await lookup.txtRecords(host).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid');
    }
    expect(dns.queries).toBe(before);
  });

  it('matches the verification record exactly, ignoring surrounding spaces', () => {
    expect(hasVerificationRecord([' svc-verify=abc '], 'abc')).toBe(true);
    expect(hasVerificationRecord(['svc-verify=abcd', 'svc-verify=ab', 'SVC-VERIFY=abc'], 'abc')).toBe(false);
  });
});
