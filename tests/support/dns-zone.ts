import type { ZoneEntry } from './dns-fixture.js';

/** The names the loopback DNS server knows, with every record type among them. */
export const ZONE: Readonly<Record<string, ZoneEntry>> = {
  'example.com': {
    A: ['192.0.2.10', '192.0.2.11'],
    AAAA: ['2001:db8::10'],
    MX: [
      { exchange: 'mx2.example.com', priority: 20 },
      { exchange: 'mx1.example.com', priority: 10 },
    ],
    NS: ['a.iana-servers.net', 'b.iana-servers.net'],
    // A record in two strings, and one too long for a 512-byte UDP answer: asked again over TCP.
    TXT: [
      ['v=spf1 ', '-all'],
      ['k='.padEnd(250, 'x'), 'y'.repeat(250), 'z'.repeat(100)],
    ],
    SOA: {
      primary: 'ns.icann.org',
      admin: 'noc.dns.icann.org',
      serial: 2026010101,
      refresh: 7200,
      retry: 3600,
      expiration: 1209600,
      minimum: 3600,
    },
    // No iodef (the original service crashed on that), and a critical tag nobody knows.
    CAA: [
      { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
      { flags: 128, tag: 'tbs', value: 'unknown' },
    ],
  },
  'www.example.com': { CNAME: 'example.com' },
  '_sip._tcp.example.com': { SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.com' }] },
  'xn--bcher-kva.example': { A: ['192.0.2.20'] },
  'www.bbc.co.uk': { A: ['192.0.2.30'] },
  'unknown.com': { A: ['192.0.2.40'] },
  'cached.example.com': { A: ['192.0.2.50'] },
  'full.example.com': { A: ['192.0.2.60'] },
  // Reverse names: an IPv4 address's and an IPv6 address's PTR records.
  '139.6.0.193.in-addr.arpa': { PTR: ['www.ripe.net'] },
  '2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.e.2.0.c.7.6.0.1.0.0.2.ip6.arpa': { PTR: ['www.ripe.net'] },
  '10.2.0.192.in-addr.arpa': { PTR: ['example.com', 'www.example.com'] },
};
