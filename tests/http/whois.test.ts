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

    it('answers 404/22 for a name that does not exist, 502/29 for SERVFAIL or a refusal, 504/30 when no answer comes', async () => {
      await expectError(await get('/api/whois/dns?domain=nowhere.example'), 404, 22);
      dns.behaviour = 'servfail';
      await expectError(await get('/api/whois/dns?domain=servfail.example'), 502, 29);
      dns.behaviour = 'refused';
      await expectError(await get('/api/whois/dns?domain=refused.example'), 502, 29);
      dns.behaviour = 'silent';
      await expectError(await get('/api/whois/dns?domain=silent.example'), 504, 30);
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

  it('needs Whois::DNS, Whois::Whois and Whois::Full, each for its own endpoint', async () => {
    const only = async (permission: string) => ({ Authorization: `Bearer ${await server.tokenFor([permission])}` });
    const dnsOnly = await only('Whois::DNS');
    expect((await server.get('/api/whois/dns?domain=example.com', dnsOnly)).status).to.equal(200);
    await expectError(await server.get('/api/whois/whois?domain=example.com', dnsOnly), 403, 1);
    await expectError(await server.get('/api/whois/full?domain=example.com', dnsOnly), 403, 1);
    await expectError(await server.get('/api/whois/dns?domain=example.com', await only('Whois::Whois')), 403, 1);
    await expectError(await server.get('/api/whois/dns?domain=example.com'), 401, 3);
  });
});
