import { expect } from 'chai';
import { startDnsFixture, type DnsFixture } from '../support/dns-fixture.js';
import { ZONE } from '../support/dns-zone.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import { BBC_CO_UK_WHOIS, startRegistries, type Registries } from '../support/registry-fixtures.js';

describe('http: domain lookup (against loopback DNS, RDAP and WHOIS servers)', () => {
  let dns: DnsFixture;
  let registries: Registries;
  let server: TestServer;
  let token: string;

  before(async () => {
    dns = await startDnsFixture(ZONE);
    registries = await startRegistries();
    server = await startServer({
      overrides: {
        whois: {
          dnsServers: [dns.server],
          dnsTimeoutMs: 200,
          rdapBootstrapUrl: registries.rdap.bootstrapUrl,
          ...registries.rdap.numberBootstrapUrls,
          whoisServer: registries.root.server,
          registrationTimeoutMs: 300,
        },
        // The registries the fixtures' root and bootstrap name are on loopback too.
        outbound: { allowedNetworks: ['127.0.0.0/8'] },
      },
    });
    token = await server.tokenFor(['Whois::*']);
  });
  after(async () => {
    await server.close();
    await Promise.all([dns.close(), registries.close()]);
  });
  afterEach(() => {
    dns.behaviour = 'normal';
    registries.tld.behaviour = 'normal';
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    server.get(path, { Authorization: `Bearer ${token}`, ...headers });
  const json = async (response: Response): Promise<Record<string, unknown>> => {
    expect(response.status).to.equal(200);
    return (await response.json()) as Record<string, unknown>;
  };
  const records = async (name: string) =>
    (await json(await get(`/api/whois/dns?domain=${encodeURIComponent(name)}`))).records;

  describe('GET /api/whois/dns', () => {
    it('answers every record type, MX by priority, TXT strings joined, CAA whatever its tag', async () => {
      const body = await json(await get('/api/whois/dns?domain=Example.COM.'));
      expect(body.domain).to.equal('example.com');
      expect(body.unicodeDomain).to.equal('example.com');
      expect(body.records).to.deep.equal({
        A: ['192.0.2.10', '192.0.2.11'],
        AAAA: ['2001:db8::10'],
        CNAME: [],
        MX: [
          { exchange: 'mx1.example.com', priority: 10 },
          { exchange: 'mx2.example.com', priority: 20 },
        ],
        NS: ['a.iana-servers.net', 'b.iana-servers.net'],
        TXT: ['v=spf1 -all', `${'k='.padEnd(250, 'x')}${'y'.repeat(250)}${'z'.repeat(100)}`],
        SOA: {
          nsname: 'ns.icann.org',
          hostmaster: 'noc.dns.icann.org',
          serial: 2026010101,
          refresh: 7200,
          retry: 3600,
          expire: 1209600,
          minttl: 3600,
        },
        CAA: [
          { critical: false, tag: 'issue', value: 'letsencrypt.org' },
          { critical: true, tag: 'tbs', value: 'unknown' },
        ],
        SRV: [],
        PTR: [],
      });
      expect(await records('www.example.com')).to.deep.include({ CNAME: ['example.com'], A: [], SOA: null });
      expect(await records('_sip._tcp.example.com')).to.deep.include({
        SRV: [{ name: 'sip.example.com', port: 5060, priority: 10, weight: 60 }],
      });
    });

    it('takes an IDN in either form and answers both', async () => {
      for (const written of ['bücher.example', 'BÜCHER.example', 'xn--bcher-kva.example']) {
        const body = await json(await get(`/api/whois/dns?domain=${encodeURIComponent(written)}`));
        expect(body, written).to.deep.include({ domain: 'xn--bcher-kva.example', unicodeDomain: 'bücher.example' });
        expect((body.records as { A: string[] }).A).to.deep.equal(['192.0.2.20']);
      }
    });

    it('takes the name from the x-domain header too; both must name the same domain', async () => {
      expect((await json(await get('/api/whois/dns', { 'x-domain': 'example.com' }))).domain).to.equal('example.com');
      expect(
        (await json(await get('/api/whois/dns?domain=EXAMPLE.com', { 'x-domain': 'example.com.' }))).domain,
      ).to.equal('example.com');
      const different = await expectError(
        await get('/api/whois/dns?domain=example.com', { 'x-domain': 'example.org' }),
        400,
        9,
      );
      expect(different.details).to.include('different domains');
      await expectError(await get('/api/whois/dns', { 'x-domain': '192.0.2.1' }), 400, 9);
    });

    it('refuses what is not a domain name: 400/6 without one, 400/7 with the reason', async () => {
      await expectError(await get('/api/whois/dns'), 400, 6);
      const refusals: Record<string, string> = {
        '192.0.2.1': 'IP address',
        '[2001:db8::1]': 'IPv6',
        '2001:db8::1': 'IPv6',
        localhost: 'single label',
        'a..example': 'empty label',
        'under_score.example': 'character other than',
        'example._com': 'underscore',
        '-lead.example': 'character other than',
        [`${'a'.repeat(64)}.example`]: 'longer than 63',
        [`${'abcdefghi.'.repeat(26)}com`]: 'more than 253',
        'exa mple.com': 'internationalised',
        'xn--zz.example': 'internationalised',
        '': 'empty',
      };
      for (const [written, reason] of Object.entries(refusals)) {
        const body = await expectError(await get(`/api/whois/dns?domain=${encodeURIComponent(written)}`), 400, 7);
        expect(body.details, written).to.include(reason);
      }
      await expectError(await get('/api/whois/dns?domain=a.example&domain=b.example'), 400, 7);
    });

    it("answers an address's PTR records under its reverse name, IPv4 and IPv6 (any form, answered canonical)", async () => {
      expect(await json(await get('/api/whois/dns?address=193.0.6.139'))).to.deep.equal({
        domain: '139.6.0.193.in-addr.arpa',
        unicodeDomain: '139.6.0.193.in-addr.arpa',
        address: '193.0.6.139',
        records: {
          A: [],
          AAAA: [],
          CNAME: [],
          MX: [],
          NS: [],
          TXT: [],
          SOA: null,
          CAA: [],
          SRV: [],
          PTR: ['www.ripe.net'],
        },
      });
      const v6 = await json(await get(`/api/whois/dns?address=${encodeURIComponent('2001:067C:02E8:0:0:0:0:2')}`));
      expect(v6).to.deep.include({
        domain: '2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.e.2.0.c.7.6.0.1.0.0.2.ip6.arpa',
        address: '2001:67c:2e8::2',
      });
      expect((v6.records as { PTR: string[] }).PTR).to.deep.equal(['www.ripe.net']);
      // A reverse name asked as a name answers the same records, without an address.
      const asName = await json(await get('/api/whois/dns?domain=10.2.0.192.in-addr.arpa'));
      expect(asName).not.to.have.property('address');
      expect((asName.records as { PTR: string[] }).PTR).to.deep.equal(['example.com', 'www.example.com']);
      // An address without PTR records is NXDOMAIN, as any name that does not exist.
      const none = await expectError(await get('/api/whois/dns?address=193.0.6.140'), 404, 22);
      expect(none.details).to.equal(
        '140.6.0.193.in-addr.arpa does not exist: the DNS resolver answered NXDOMAIN (no such name)',
      );
    });

    it('refuses an address that is none, or one beside a domain, with 400/7 and the reason', async () => {
      const refusals: Record<string, string> = {
        '010.1.1.1': 'leading zero',
        '1.2.3': 'four decimal parts',
        '256.1.1.1': 'at most 255',
        '[2001:db8::1]': 'without brackets',
        'fe80::1%eth0': 'zone',
        '193.0.0.0/21': 'network',
        '1::2::3': 'not a valid IPv6 address',
        'example.com': 'four decimal parts',
        '': 'empty',
      };
      for (const [written, reason] of Object.entries(refusals)) {
        const body = await expectError(await get(`/api/whois/dns?address=${encodeURIComponent(written)}`), 400, 7);
        expect(body.details, written).to.include(reason);
      }
      const both = await expectError(await get('/api/whois/dns?address=193.0.6.139&domain=example.com'), 400, 7);
      expect(both.details).to.equal('give a domain name or an address, not both');
      await expectError(await get('/api/whois/dns?address=193.0.6.139', { 'x-domain': 'example.com' }), 400, 7);
    });

    it('answers 404/22 for a name that does not exist, 502/29 for SERVFAIL or a refusal, 504/30 when no answer comes', async () => {
      const missing = await expectError(await get('/api/whois/dns?domain=nowhere.example'), 404, 22);
      expect(missing.details).to.equal(
        'nowhere.example does not exist: the DNS resolver answered NXDOMAIN (no such name)',
      );
      dns.behaviour = 'servfail';
      await expectError(await get('/api/whois/dns?domain=servfail.example'), 502, 29);
      dns.behaviour = 'refused';
      await expectError(await get('/api/whois/dns?domain=refused.example'), 502, 29);
      dns.behaviour = 'silent';
      await expectError(await get('/api/whois/dns?domain=silent.example'), 504, 30);
    });

    it('answers 502/29, not 404, from a resolver that says NXDOMAIN to everything, the root zone included', async () => {
      dns.behaviour = 'nxdomain';
      const body = await expectError(await get('/api/whois/dns?domain=everything.example'), 502, 29);
      expect(body.details).to.equal(
        'the DNS resolver answers NXDOMAIN even for the root zone: it gives no DNS, so whether everything.example exists is not known',
      );
    });

    it('keeps an answer: the same name asked again costs no query', async () => {
      await records('cached.example.com');
      const asked = dns.queries.length;
      expect(asked).to.be.greaterThan(0);
      expect((await records('cached.example.com')) as { A: string[] }).to.deep.include({ A: ['192.0.2.50'] });
      expect(dns.queries).to.have.length(asked);
    });
  });

  describe('GET /api/whois/whois', () => {
    it('reads RDAP for a TLD that has it, for the registrable domain of the name', async () => {
      const body = await json(await get('/api/whois/whois?domain=www.example.com'));
      expect(body).to.deep.equal({
        domain: 'example.com',
        unicodeDomain: 'example.com',
        source: 'rdap',
        registrar: {
          name: 'RESERVED-Internet Assigned Numbers Authority',
          ianaId: '376',
          url: 'https://www.iana.org/',
        },
        created: '1995-08-14T04:00:00.000Z',
        updated: '2025-08-14T07:01:39.000Z',
        expires: '2026-08-13T04:00:00.000Z',
        status: [
          { code: 'clientDeleteProhibited', description: 'client delete prohibited' },
          { code: 'clientTransferProhibited', description: 'client transfer prohibited' },
          { code: 'clientUpdateProhibited', description: 'client update prohibited' },
        ],
        nameservers: ['a.iana-servers.net', 'b.iana-servers.net'],
        dnssec: true,
        registrant: { organization: 'REDACTED FOR PRIVACY', country: 'US' },
        rdapUrl: `${registries.rdap.url}/rdap/domain/example.com`,
      });
    });

    it('answers 404/22 for a domain the RDAP service does not know, without asking WHOIS', async () => {
      const asked = registries.root.queries.length;
      await expectError(await get('/api/whois/whois?domain=unknown.com'), 404, 22);
      expect(registries.root.queries).to.have.length(asked);
    });

    it('follows WHOIS referrals for a TLD without RDAP, reading a co.uk name as its registrable domain', async () => {
      const body = await json(await get('/api/whois/whois?domain=www.bbc.co.uk'));
      expect(body).to.deep.equal({
        domain: 'bbc.co.uk',
        unicodeDomain: 'bbc.co.uk',
        source: 'whois',
        registrar: { name: 'British Broadcasting Corporation [Tag = BBC]', ianaId: null, url: null },
        // "before Aug-1996" is no date: left null rather than guessed.
        created: null,
        updated: '2024-11-11T00:00:00.000Z',
        expires: '2026-12-13T00:00:00.000Z',
        status: [{ code: 'Registered until expiry date.', description: 'Registered until expiry date.' }],
        nameservers: ['dns0.bbc.co.uk', 'dns1.bbc.co.uk'],
        dnssec: null,
        registrant: null,
        whoisServer: registries.tld.server,
      });
      expect(registries.root.queries).to.include('bbc.co.uk');
      expect(registries.tld.queries).to.include('bbc.co.uk');
    });

    it("gives the WHOIS server's text with raw=true", async () => {
      const body = await json(await get('/api/whois/whois?domain=bbc.co.uk&raw=true'));
      expect(body.raw).to.equal(BBC_CO_UK_WHOIS);
      expect(await json(await get('/api/whois/whois?domain=bbc.co.uk&raw=false'))).not.to.have.property('raw');
      await expectError(await get('/api/whois/whois?domain=bbc.co.uk&raw=yes'), 400, 7);
      // An RDAP answer has no such text: raw=true is refused rather than dropped.
      const rdap = await expectError(await get('/api/whois/whois?domain=example.com&raw=true'), 400, 7);
      expect(rdap.details).to.equal(
        "raw=true asks for the WHOIS server's text, and the registration of example.com comes from RDAP without one: leave raw out",
      );
      expect(await json(await get('/api/whois/whois?domain=example.com&raw=false'))).to.deep.include({
        source: 'rdap',
      });
    });

    it('falls back to WHOIS when RDAP fails, reading the ICANN layout', async () => {
      const body = await json(await get('/api/whois/whois?domain=example.net'));
      expect(body).to.deep.include({
        source: 'whois',
        registrar: {
          name: 'RESERVED-Internet Assigned Numbers Authority',
          ianaId: '376',
          url: 'http://res-dom.iana.org',
        },
        created: '1995-08-14T04:00:00.000Z',
        updated: '2024-08-14T07:01:34.000Z',
        expires: '2026-08-13T04:00:00.000Z',
        nameservers: ['a.iana-servers.net', 'b.iana-servers.net'],
        dnssec: true,
      });
      expect(body.status).to.deep.equal([
        { code: 'clientDeleteProhibited', description: 'client delete prohibited' },
        { code: 'clientTransferProhibited', description: 'client transfer prohibited' },
      ]);
    });

    it('answers 404/22 for "No match", and for a TLD no registry serves', async () => {
      await expectError(await get('/api/whois/whois?domain=nosuch.co.uk'), 404, 22);
      await expectError(await get('/api/whois/whois?domain=nothing.zz'), 404, 22);
      await expectError(await get('/api/whois/whois?domain=co.uk'), 404, 22);
    });

    it('answers 504/30 when a WHOIS server never answers, 502/29 when it sends 1 MB', async () => {
      registries.tld.behaviour = 'hang';
      await expectError(await get('/api/whois/whois?domain=hang.co.uk'), 504, 30);
      registries.tld.behaviour = 'flood';
      await expectError(await get('/api/whois/whois?domain=flood.co.uk'), 502, 29);
    });

    it('keeps a registration: asked again, no registry hears of it', async () => {
      await json(await get('/api/whois/whois?domain=example.com'));
      await json(await get('/api/whois/whois?domain=bbc.co.uk'));
      const rdapCalls = registries.rdap.calls.length;
      const whoisQueries = registries.root.queries.length + registries.tld.queries.length;
      await json(await get('/api/whois/whois?domain=mail.example.com'));
      await json(await get('/api/whois/whois?domain=bbc.co.uk'));
      expect(registries.rdap.calls).to.have.length(rdapCalls);
      expect(registries.root.queries.length + registries.tld.queries.length).to.equal(whoisQueries);
    });
  });

  describe('GET /api/whois/full', () => {
    it('answers both parts at once', async () => {
      const body = await json(await get('/api/whois/full?domain=full.example.com'));
      expect(body).to.deep.include({ domain: 'full.example.com', unicodeDomain: 'full.example.com', errors: {} });
      expect(body.dns).to.deep.include({ A: ['192.0.2.60'] });
      expect(body.registration).to.deep.include({ domain: 'example.com', source: 'rdap' });
    });

    it('still answers one part when the other fails, naming the failure; both failing is the registration’s error', async () => {
      dns.behaviour = 'servfail';
      const body = await json(await get('/api/whois/full?domain=dnsdown.example.com'));
      expect(body.dns).to.equal(null);
      expect(body.errors).to.deep.equal({ dns: { code: 29, message: 'An upstream service is unavailable' } });
      expect(body.registration).to.deep.include({ domain: 'example.com' });

      dns.behaviour = 'normal';
      const registrationDown = await json(await get('/api/whois/full?domain=unknown.com'));
      expect(registrationDown.registration).to.equal(null);
      expect(registrationDown.errors).to.deep.equal({
        registration: { code: 22, message: 'Unable to retrieve requested information' },
      });
      expect(registrationDown.dns).to.deep.include({ A: ['192.0.2.40'] });

      // No such name in DNS, and a registry that never answers.
      registries.tld.behaviour = 'hang';
      await expectError(await get('/api/whois/full?domain=hang2.co.uk'), 504, 30);
    });
  });

  describe('GET /api/whois/ip', () => {
    const network = async (address: string) => json(await get(`/api/whois/ip?address=${encodeURIComponent(address)}`));

    it("answers the registry's network that holds an IPv4 address, found through IANA's bootstrap file", async () => {
      expect(await network('193.0.6.139')).to.deep.equal({
        address: '193.0.6.139',
        ipVersion: 'v4',
        startAddress: '193.0.0.0',
        endAddress: '193.0.7.255',
        cidrs: ['193.0.0.0/21'],
        parentHandle: '193.0.0.0 - 193.0.23.255',
        handle: '193.0.0.0 - 193.0.7.255',
        name: 'RIPE-NCC',
        type: 'ASSIGNED PA',
        country: 'NL',
        status: ['active'],
        registrant: {
          handle: 'ORG-RIEN1-RIPE',
          name: 'Reseaux IP Europeens Network Coordination Centre (RIPE NCC)',
          country: null,
        },
        abuse: { handle: 'OPS4-RIPE', name: 'RIPE NCC Operations', email: 'abuse@ripe.net', phone: '+31 20 535 4444' },
        created: '2003-03-17T12:15:57.000Z',
        updated: '2024-07-01T09:04:45.000Z',
        rdapUrl: `${registries.rdap.url}/rdap/ip/193.0.6.139`,
      });
    });

    it('answers an IPv6 network, the address and the range in their canonical form', async () => {
      expect(await network('2001:067C:02E8:0:0:0:0:2')).to.deep.include({
        address: '2001:67c:2e8::2',
        ipVersion: 'v6',
        startAddress: '2001:67c:2e8::',
        endAddress: '2001:67c:2e8:ffff:ffff:ffff:ffff:ffff',
        cidrs: ['2001:67c:2e8::/48'],
        parentHandle: '2001:600::/23',
        name: 'RIPE-NCC',
        country: 'NL',
        rdapUrl: `${registries.rdap.url}/rdap/ip/2001:67c:2e8::2`,
      });
    });

    it('answers 404/22 for special-purpose addresses without asking any registry, with what they are for', async () => {
      registries.rdap.resetCounts();
      const special: Record<string, string> = {
        '192.168.1.1':
          '192.168.1.1 is in 192.168.0.0/16, private-use address space (RFC 1918): no registry publishes who holds it',
        '127.0.0.1': '127.0.0.1 is in 127.0.0.0/8, loopback (RFC 1122): no registry publishes who holds it',
        '100.64.0.1':
          '100.64.0.1 is in 100.64.0.0/10, shared address space for carrier-grade NAT (RFC 6598): no registry publishes who holds it',
        '203.0.113.9':
          '203.0.113.9 is in 203.0.113.0/24, documentation, TEST-NET-3 (RFC 5737): no registry publishes who holds it',
        '::1': '::1 is in ::1/128, loopback (RFC 4291): no registry publishes who holds it',
        'FD00::1': 'fd00::1 is in fc00::/7, unique-local (RFC 4193): no registry publishes who holds it',
        '2001:db8::1': '2001:db8::1 is in 2001:db8::/32, documentation (RFC 3849): no registry publishes who holds it',
        '::ffff:193.0.6.139':
          '::ffff:193.0.6.139 is in ::ffff:0.0.0.0/96, IPv4-mapped (RFC 4291): ask for the IPv4 address it carries: no registry publishes who holds it',
        '224.0.0.251': '224.0.0.251 is in 224.0.0.0/4, multicast (RFC 5771): no registry publishes who holds it',
      };
      for (const [address, details] of Object.entries(special)) {
        const body = await expectError(await get(`/api/whois/ip?address=${encodeURIComponent(address)}`), 404, 22);
        expect(body.details, address).to.equal(details);
      }
      expect(registries.rdap.calls).to.deep.equal([]);
    });

    it('answers 404/22 for an address no registry serves or the registry does not know, 502/29 when the registry is down', async () => {
      const unserved = await expectError(await get('/api/whois/ip?address=1.1.1.1'), 404, 22);
      expect(unserved.details).to.equal(
        "IANA's bootstrap file names no RDAP service for 1.1.1.1: no regional registry has been given it",
      );
      const unknown = await expectError(await get('/api/whois/ip?address=193.0.10.1'), 404, 22);
      expect(unknown.details).to.equal('The registry that serves 193.0.10.1 does not know it');
      const down = await expectError(await get('/api/whois/ip?address=8.8.8.8'), 502, 29);
      expect(down.details).to.equal('the RDAP service at 127.0.0.1:1 could not be used');
    });

    it('refuses what is not one address: 400/6 without one, 400/7 with the reason', async () => {
      await expectError(await get('/api/whois/ip'), 400, 6);
      for (const [written, reason] of Object.entries({
        '193.0.0.0/21': 'network',
        '193.000.6.139': 'leading zero',
        '0x7f.1': 'four decimal parts',
        'ripe.net': 'four decimal parts',
        '2001:67c:2e8::2::': 'not a valid IPv6 address',
        ' 193.0.6.139': 'four decimal parts',
      })) {
        const body = await expectError(await get(`/api/whois/ip?address=${encodeURIComponent(written)}`), 400, 7);
        expect(body.details, written).to.include(reason);
      }
      await expectError(await get('/api/whois/ip?address=193.0.6.139&address=193.0.6.140'), 400, 7);
    });

    it('keeps a network: the same address asked again costs no call, in any form', async () => {
      await network('193.0.6.1');
      await network('2001:67c:2e8::1');
      const calls = registries.rdap.calls.length;
      await network('193.0.6.1');
      await network('2001:067c:2E8:0:0:0:0:1');
      expect(registries.rdap.calls).to.have.length(calls);
    });
  });

  describe('GET /api/whois/asn', () => {
    it('answers the AS block that holds a number, written with or without AS', async () => {
      const expected = {
        asn: 3333,
        startAutnum: 3333,
        endAutnum: 3333,
        handle: 'AS3333',
        name: 'RIPE-NCC-AS',
        type: 'DIRECT ALLOCATION',
        country: null,
        status: ['active'],
        registrant: {
          handle: 'ORG-RIEN1-RIPE',
          name: 'Reseaux IP Europeens Network Coordination Centre (RIPE NCC)',
          country: null,
        },
        abuse: { handle: 'OPS4-RIPE', name: 'RIPE NCC Operations', email: 'abuse@ripe.net', phone: '+31 20 535 4444' },
        created: '2002-09-17T10:42:05.000Z',
        updated: '2025-01-15T14:21:10.000Z',
        rdapUrl: `${registries.rdap.url}/rdap/autnum/3333`,
      };
      for (const written of ['AS3333', '3333', 'as3333'])
        expect(await json(await get(`/api/whois/asn?asn=${written}`)), written).to.deep.equal(expected);
    });

    it('answers 404/22 for private, reserved and documentation numbers without asking, for one unserved or unknown; 502/29 when down', async () => {
      registries.rdap.resetCounts();
      const special: Record<string, string> = {
        '64512': 'AS64512 is in AS64512-AS65534, for private use (RFC 6996): no registry publishes who holds it',
        AS0: 'AS0 is in AS0, reserved (RFC 7607): no registry publishes who holds it',
        '23456':
          'AS23456 is in AS23456, AS_TRANS, the stand-in for 4-byte numbers (RFC 6793): no registry publishes who holds it',
        '4200000000':
          'AS4200000000 is in AS4200000000-AS4294967294, for private use (RFC 6996): no registry publishes who holds it',
      };
      for (const [asn, details] of Object.entries(special))
        expect((await expectError(await get(`/api/whois/asn?asn=${asn}`), 404, 22)).details, asn).to.equal(details);
      expect(registries.rdap.calls.filter((call) => call.startsWith('/rdap/'))).to.deep.equal([]);
      expect((await expectError(await get('/api/whois/asn?asn=1'), 404, 22)).details).to.equal(
        "IANA's bootstrap file names no RDAP service for AS1: no regional registry has been given it",
      );
      expect((await expectError(await get('/api/whois/asn?asn=3334'), 404, 22)).details).to.equal(
        'The registry that serves AS3334 does not know it',
      );
      await expectError(await get('/api/whois/asn?asn=15169'), 502, 29);
    });

    it('refuses what is no AS number: 400/6 without one, 400/7 with the reason', async () => {
      await expectError(await get('/api/whois/asn'), 400, 6);
      for (const [written, reason] of Object.entries({
        AS: 'no number',
        '1.10': 'asdot',
        '03333': 'leading zero',
        '4294967296': 'more than 4294967295',
        'AS 3333': 'not a decimal number',
        '-1': 'not a decimal number',
        ASN3333: 'not a decimal number',
      })) {
        const body = await expectError(await get(`/api/whois/asn?asn=${encodeURIComponent(written)}`), 400, 7);
        expect(body.details, written).to.include(reason);
      }
    });
  });

  it('needs Whois::DNS, Whois::Whois and Whois::Full, each for its own endpoint', async () => {
    const only = async (permission: string) => ({ Authorization: `Bearer ${await server.tokenFor([permission])}` });
    const dnsOnly = await only('Whois::DNS');
    expect((await server.get('/api/whois/dns?domain=example.com', dnsOnly)).status).to.equal(200);
    await expectError(await server.get('/api/whois/whois?domain=example.com', dnsOnly), 403, 1);
    await expectError(await server.get('/api/whois/full?domain=example.com', dnsOnly), 403, 1);
    await expectError(await server.get('/api/whois/dns?domain=example.com', await only('Whois::Whois')), 403, 1);
    await expectError(await server.get('/api/whois/dns?domain=example.com'), 401, 3);
  });

  it('needs Whois::IP and Whois::ASN, each for its own endpoint', async () => {
    const ipOnly = { Authorization: `Bearer ${await server.tokenFor(['Whois::IP'])}` };
    expect((await server.get('/api/whois/ip?address=193.0.6.139', ipOnly)).status).to.equal(200);
    await expectError(await server.get('/api/whois/asn?asn=3333', ipOnly), 403, 1);
    await expectError(await server.get('/api/whois/dns?address=193.0.6.139', ipOnly), 403, 1);
    const asnOnly = { Authorization: `Bearer ${await server.tokenFor(['Whois::ASN'])}` };
    expect((await server.get('/api/whois/asn?asn=3333', asnOnly)).status).to.equal(200);
    await expectError(await server.get('/api/whois/ip?address=193.0.6.139', asnOnly), 403, 1);
  });
});

describe('http: DNS lookups when no resolver can be reached (a DNS server that is down)', () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    // A server that was there and is gone: its port now refuses every question.
    const gone = await startDnsFixture(ZONE);
    await gone.close();
    server = await startServer({ overrides: { whois: { dnsServers: [gone.server], dnsTimeoutMs: 500 } } });
    token = await server.tokenFor(['Whois::DNS']);
  });
  after(() => server.close());

  it('answers 502/29 saying so, never "does not exist"', async () => {
    for (const query of ['domain=example.com', 'domain=nowhere.example', 'address=193.0.6.139']) {
      const body = await expectError(
        await server.get(`/api/whois/dns?${query}`, { Authorization: `Bearer ${token}` }),
        502,
        29,
      );
      expect(body.details, query).to.equal('no DNS resolver could be reached (ECONNREFUSED)');
    }
  });
});
