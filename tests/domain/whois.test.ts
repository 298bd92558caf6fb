import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryDnsLookup } from '../../src/families/whois/adapters/dns/memory-dns-lookup.js';
import { MemoryPublicSuffixes } from '../../src/families/whois/adapters/tldts/memory-public-suffixes.js';
import { MemoryRegistrationSource } from '../../src/families/whois/adapters/whois/memory-registration-source.js';
import {
  domainOf,
  LookUpDns,
  LookUpDomain,
  LookUpRegistration,
  MAX_DNS_CACHE_MS,
} from '../../src/families/whois/domain/domain-lookups.js';
import { parseDomainName } from '../../src/families/whois/domain/domain-name.js';
import type {
  DnsLookup,
  DnsResult,
  RegistrationResult,
  RegistrationSource,
} from '../../src/families/whois/domain/ports.js';
import { NO_RECORDS } from '../../src/families/whois/domain/records.js';
import { domainStatus, isoDate, type Registration } from '../../src/families/whois/domain/registration.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { ManualClock } from '../support/manual-clock.js';

const EXAMPLE_RECORDS = { ...NO_RECORDS, A: ['192.0.2.1'] };
const REGISTRATION: Registration = {
  source: 'rdap',
  registrar: { name: 'Registrar', ianaId: '1', url: null },
  created: '2000-01-01T00:00:00.000Z',
  updated: null,
  expires: null,
  status: [],
  nameservers: [],
  dnssec: null,
  registrant: null,
  rdapUrl: 'https://rdap.example/domain/example.com',
};
const { rdapUrl: _rdapUrl, ...ANY_SOURCE } = REGISTRATION;
const WHOIS_REGISTRATION: Registration = {
  ...ANY_SOURCE,
  source: 'whois',
  whoisServer: 'whois.nic.uk',
  raw: 'Domain name: bbc.co.uk',
};

/** A port that counts the questions it hears, what caching is judged by, and passes them on. */
const countingDns = (dns: DnsLookup): { asked: number; port: DnsLookup } => {
  const counter: { asked: number; port: DnsLookup } = {
    asked: 0,
    port: { records: (name) => ((counter.asked += 1), dns.records(name)) },
  };
  return counter;
};
const countingSource = (source: RegistrationSource): { asked: number; port: RegistrationSource } => {
  const counter: { asked: number; port: RegistrationSource } = {
    asked: 0,
    port: { registration: (domain) => ((counter.asked += 1), source.registration(domain)) },
  };
  return counter;
};
const answering = (result: RegistrationResult): RegistrationSource => ({ registration: async () => result });

describe('domain: reading a domain name', () => {
  const read = (text: string) => parseDomainName(text, 'domain');

  it('takes any case, one trailing dot, service labels, and IDN in either form', () => {
    expect(expectRight(read('WWW.Example.COM.'))).to.deep.equal({
      ascii: 'www.example.com',
      unicode: 'www.example.com',
    });
    expect(expectRight(read('_sip._tcp.example.com')).ascii).to.equal('_sip._tcp.example.com');
    expect(expectRight(read('Bücher.example'))).to.deep.equal({
      ascii: 'xn--bcher-kva.example',
      unicode: 'bücher.example',
    });
    expect(expectRight(read('xn--bcher-kva.example')).unicode).to.equal('bücher.example');
    expect(expectRight(read('例え.テスト')).ascii).to.equal('xn--r8jz45g.xn--zckzah');
    expect(expectRight(read(`${'a'.repeat(63)}.example`)).ascii).to.have.length(71);
  });

  it('refuses IP literals, single labels, empty labels, misplaced underscores and hyphens, and over-long names', () => {
    for (const bad of [
      '1.2.3.4',
      '1.2.3.04',
      '0x7f.1',
      '::1',
      '[::1]',
      'localhost',
      'com.',
      '',
      '.',
      'a..b',
      '.example.com',
      'a_b.example',
      'example._com',
      '-a.example',
      'a-.example',
      'a b.example',
      'a/b.example',
      'xn--zz.example',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(127)}com`,
      'x'.repeat(2_000),
    ]) {
      expect(E.isLeft(read(bad)), bad).to.equal(true);
    }
  });

  it('refuses the invisible characters IDNA would drop, rather than look up a name that was not written', () => {
    for (const bad of ['\u200Bexample.com', 'exa\u200Dmple.com', '\uFEFFexample.com', 'example.com\u2066']) {
      expect(E.getOrElse((reason: string) => reason)(E.map(() => 'taken')(read(bad))), JSON.stringify(bad)).to.match(
        /: it contains control characters or invisible formatting characters \(zero-width, bidirectional\)$/,
      );
    }
  });

  it('takes the name from either field; both must agree, the second field’s fault is its own', () => {
    expectLeftTag(domainOf({}), 'MissingInput');
    expect(expectRight(domainOf({ legacyDomain: 'example.com' })).ascii).to.equal('example.com');
    expect(expectRight(domainOf({ domain: 'Example.com', legacyDomain: 'example.com.' })).ascii).to.equal(
      'example.com',
    );
    expect(domainOf({ domain: 'a.example', legacyDomain: 'b.example' })).to.deep.include({
      left: {
        _tag: 'InvalidInput',
        fields: ['legacyDomain'],
        reason: 'legacyDomain (b.example) and domain (a.example) name different domains: give one',
      },
    });
    expect(
      expectLeftTag(domainOf({ domain: 'ok.example', legacyDomain: '1.2.3.4' }), 'InvalidInput'),
    ).to.have.deep.property('fields', ['legacyDomain']);
    expect(
      expectLeftTag(domainOf({ domain: 'localhost', legacyDomain: 'ok.example' }), 'InvalidInput'),
    ).to.have.deep.property('fields', ['domain']);
  });

  it('names each field as its caller does, in the fields refused and in the reasons', () => {
    const fieldNames = { legacyDomain: 'x-domain' };
    expect(domainOf({ domain: 'a.example', legacyDomain: 'b.example', fieldNames })).to.deep.include({
      left: {
        _tag: 'InvalidInput',
        fields: ['x-domain'],
        reason: 'x-domain (b.example) and domain (a.example) name different domains: give one',
      },
    });
    const refused = expectLeftTag(
      domainOf({ domain: 'ok.example', legacyDomain: '1.2.3.4', fieldNames }),
      'InvalidInput',
    );
    expect(refused).to.have.deep.property('fields', ['x-domain']);
    expect(refused)
      .to.have.property('reason')
      .that.matches(/^x-domain must be /);
    expect(domainOf({ fieldNames: { domain: 'name' } })).to.deep.include({
      left: { _tag: 'MissingInput', fields: ['name'] },
    });
  });
});

describe('domain: registration data as registries write it', () => {
  it('reads EPP codes and RDAP words as one status, keeping one it does not know as written', () => {
    expect(domainStatus('clientTransferProhibited https://icann.org/epp#clientTransferProhibited')).to.deep.equal({
      code: 'clientTransferProhibited',
      description: 'client transfer prohibited',
    });
    expect(domainStatus('client transfer prohibited')).to.deep.equal({
      code: 'clientTransferProhibited',
      description: 'client transfer prohibited',
    });
    expect(domainStatus('active')).to.deep.equal({ code: 'ok', description: 'active' });
    expect(domainStatus('Registered until expiry date.')).to.deep.equal({
      code: 'Registered until expiry date.',
      description: 'Registered until expiry date.',
    });
  });

  it('reads dates that read one way only, and nothing else', () => {
    expect(isoDate('2024-01-31T10:00:00Z')).to.equal('2024-01-31T10:00:00.000Z');
    expect(isoDate('2024-01-31T10:00:00.5+02:00')).to.equal('2024-01-31T08:00:00.000Z');
    expect(isoDate('2024-01-31 10:00:00')).to.equal('2024-01-31T10:00:00.000Z');
    expect(isoDate('2024.01.31')).to.equal('2024-01-31T00:00:00.000Z');
    expect(isoDate('31-Jan-2024')).to.equal('2024-01-31T00:00:00.000Z');
    for (const unread of ['before Aug-1996', '01/02/2024', '2024-02-30', '31-Foo-2024', '', null, undefined])
      expect(isoDate(unread), String(unread)).to.equal(null);
  });
});

describe('domain: DNS lookups', () => {
  it('answers a name’s records in both forms, 22 for a name that does not exist, 29 and 30 for outages', async () => {
    const lookUp = new LookUpDns(
      new MemoryDnsLookup(new Map([['example.com', EXAMPLE_RECORDS]])),
      new ManualClock(),
      10,
    );
    expect(expectRight(await lookUp.execute({ domain: 'EXAMPLE.com' }))).to.deep.equal({
      domain: 'example.com',
      unicodeDomain: 'example.com',
      records: EXAMPLE_RECORDS,
    });
    expectLeftTag(await lookUp.execute({ domain: 'nowhere.example' }), 'InformationNotFound');
    const cause = new Error('ESERVFAIL');
    const down = (reason: 'timeout' | 'failure'): DnsLookup => ({
      records: async () => ({ kind: 'unavailable', reason, details: 'down', cause }),
    });
    expect(
      expectLeftTag(
        await new LookUpDns(down('failure'), new ManualClock(), 10).execute({ domain: 'a.example' }),
        'UpstreamUnavailable',
      ),
    ).to.deep.include({ cause });
    expectLeftTag(
      await new LookUpDns(down('timeout'), new ManualClock(), 10).execute({ domain: 'a.example' }),
      'UpstreamTimeout',
    );
  });

  it('keeps an answer for its smallest TTL, never more than 5 minutes, and no failure at all', async () => {
    const clock = new ManualClock();
    for (const [ttlMs, keptMs] of [
      [60_000, 60_000],
      [3_600_000, MAX_DNS_CACHE_MS],
      [undefined, MAX_DNS_CACHE_MS],
    ] as const) {
      const dns = countingDns(new MemoryDnsLookup(new Map([['example.com', EXAMPLE_RECORDS]]), ttlMs));
      const lookUp = new LookUpDns(dns.port, clock, 10);
      await lookUp.execute({ domain: 'example.com' });
      clock.advance(keptMs - 1);
      await lookUp.execute({ domain: 'example.com' });
      expect(dns.asked, `kept within ${keptMs} ms`).to.equal(1);
      clock.advance(1);
      await lookUp.execute({ domain: 'example.com' });
      expect(dns.asked, `asked again after ${keptMs} ms`).to.equal(2);
    }
    const failing = countingDns({
      records: async (): Promise<DnsResult> => ({ kind: 'unavailable', reason: 'failure', details: 'down' }),
    });
    const lookUp = new LookUpDns(failing.port, clock, 10);
    await lookUp.execute({ domain: 'example.com' });
    await lookUp.execute({ domain: 'example.com' });
    expect(failing.asked).to.equal(2);
  });

  it('asks once for identical questions that arrive together', async () => {
    const dns = countingDns(new MemoryDnsLookup(new Map([['example.com', EXAMPLE_RECORDS]])));
    const lookUp = new LookUpDns(dns.port, new ManualClock(), 10);
    await Promise.all(Array.from({ length: 5 }, () => lookUp.execute({ domain: 'example.com' })));
    expect(dns.asked).to.equal(1);
  });
});

describe('domain: registration lookups', () => {
  const suffixes = new MemoryPublicSuffixes(new Set(['co.uk']));
  const rdapHolding = new MemoryRegistrationSource(new Map([['example.com', REGISTRATION]]));
  const whoisHolding = new MemoryRegistrationSource(
    new Map([['bbc.co.uk', WHOIS_REGISTRATION]]),
    new Set(['uk', 'com']),
  );
  const settings = { ttlMs: 3_600_000, maxEntries: 10 };

  it('asks RDAP for the registrable domain; its answer or its "not found" is final', async () => {
    const whois = countingSource(whoisHolding);
    const lookUp = new LookUpRegistration(rdapHolding, whois.port, suffixes, new ManualClock(), settings);
    expect(expectRight(await lookUp.execute({ domain: 'www.example.com' }))).to.deep.equal({
      domain: 'example.com',
      unicodeDomain: 'example.com',
      ...REGISTRATION,
    });
    expectLeftTag(await lookUp.execute({ domain: 'unknown.com' }), 'InformationNotFound');
    expect(whois.asked).to.equal(0);
  });

  it('asks WHOIS where RDAP has no service or fails, and gives its text only when asked', async () => {
    const lookUp = new LookUpRegistration(rdapHolding, whoisHolding, suffixes, new ManualClock(), settings);
    const { raw: _raw, ...withoutRaw } = WHOIS_REGISTRATION;
    expect(expectRight(await lookUp.execute({ domain: 'www.bbc.co.uk' }))).to.deep.equal({
      domain: 'bbc.co.uk',
      unicodeDomain: 'bbc.co.uk',
      ...withoutRaw,
    });
    expect(expectRight(await lookUp.execute({ domain: 'bbc.co.uk', raw: true })).raw).to.equal(
      'Domain name: bbc.co.uk',
    );
    const rdapDown = answering({ kind: 'unavailable', reason: 'timeout', details: 'slow' });
    expect(
      expectRight(
        await new LookUpRegistration(rdapDown, whoisHolding, suffixes, new ManualClock(), settings).execute({
          domain: 'bbc.co.uk',
        }),
      ).source,
    ).to.equal('whois');
  });

  it('answers 22 for a public suffix or a TLD nobody serves, RDAP’s outage when WHOIS has nothing to add, WHOIS’s when it fails too', async () => {
    const lookUp = new LookUpRegistration(rdapHolding, whoisHolding, suffixes, new ManualClock(), settings);
    expectLeftTag(await lookUp.execute({ domain: 'co.uk' }), 'InformationNotFound');
    expectLeftTag(await lookUp.execute({ domain: 'nothing.zz' }), 'InformationNotFound');
    const rdapDown = answering({ kind: 'unavailable', reason: 'timeout', details: 'slow' });
    expectLeftTag(
      await new LookUpRegistration(
        rdapDown,
        answering({ kind: 'no-service' }),
        suffixes,
        new ManualClock(),
        settings,
      ).execute({ domain: 'a.zz' }),
      'UpstreamTimeout',
    );
    const whoisDown = answering({
      kind: 'unavailable',
      reason: 'failure',
      details: 'refused',
      cause: new Error('ECONNREFUSED'),
    });
    expectLeftTag(
      await new LookUpRegistration(rdapDown, whoisDown, suffixes, new ManualClock(), settings).execute({
        domain: 'a.zz',
      }),
      'UpstreamUnavailable',
    );
  });

  it('keeps a registration for its TTL, per registrable domain', async () => {
    const clock = new ManualClock();
    const rdap = countingSource(rdapHolding);
    const lookUp = new LookUpRegistration(rdap.port, whoisHolding, suffixes, clock, settings);
    await lookUp.execute({ domain: 'example.com' });
    clock.advance(settings.ttlMs - 1);
    await lookUp.execute({ domain: 'www.example.com' });
    expect(rdap.asked).to.equal(1);
    clock.advance(1);
    await lookUp.execute({ domain: 'example.com' });
    expect(rdap.asked).to.equal(2);
  });
});

describe('domain: both lookups at once', () => {
  const suffixes = new MemoryPublicSuffixes();
  const registrations = new MemoryRegistrationSource(new Map([['example.com', REGISTRATION]]));
  const dns = new MemoryDnsLookup(
    new Map([
      ['www.example.com', EXAMPLE_RECORDS],
      ['missing.com', EXAMPLE_RECORDS],
    ]),
  );
  const full = (dnsPort: DnsLookup) =>
    new LookUpDomain(
      new LookUpDns(dnsPort, new ManualClock(), 10),
      new LookUpRegistration(registrations, new MemoryRegistrationSource(), suffixes, new ManualClock(), {
        ttlMs: 1,
        maxEntries: 10,
      }),
    );

  it('answers each part, and names the one that failed beside the other', async () => {
    const both = expectRight(await full(dns).execute({ domain: 'www.example.com' }));
    expect(both).to.deep.include({ domain: 'www.example.com', dns: EXAMPLE_RECORDS, errors: {} });
    expect(both.registration).to.deep.include({ domain: 'example.com' });
    const noRegistration = expectRight(await full(dns).execute({ domain: 'missing.com' }));
    expect(noRegistration).to.deep.include({ dns: EXAMPLE_RECORDS, registration: null });
    expect(noRegistration.errors.registration?._tag).to.equal('InformationNotFound');
    const dnsDown: DnsLookup = { records: async () => ({ kind: 'unavailable', reason: 'timeout', details: 'slow' }) };
    const noDns = expectRight(await full(dnsDown).execute({ domain: 'example.com' }));
    expect(noDns.dns).to.equal(null);
    expect(noDns.errors.dns?._tag).to.equal('UpstreamTimeout');
  });

  it('answers the registration’s error when both fail, and refuses bad input before asking anybody', async () => {
    const dnsDown: DnsLookup = { records: async () => ({ kind: 'unavailable', reason: 'timeout', details: 'slow' }) };
    expectLeftTag(await full(dnsDown).execute({ domain: 'missing.com' }), 'InformationNotFound');
    expectLeftTag(await full(dnsDown).execute({}), 'MissingInput');
  });
});
