import type { RouteSampleTable } from '../../platform/http/route-samples.js';

/** Names the test suite's loopback DNS and registries know, and some they do not or that are no names. */
const domain = [
  'example.com',
  'www.example.com',
  'bücher.example',
  'www.bbc.co.uk',
  'example.net',
  'nosuch.co.uk',
  'co.uk',
  '192.0.2.1',
  'localhost',
  'a..b',
];

/** Addresses the loopback registry holds, one it does not serve, special-purpose ones, and some that are no address. */
const address = [
  '193.0.6.139',
  '2001:67c:2e8::2',
  '2001:067C:02E8:0:0:0:0:2',
  '193.0.10.1',
  '1.1.1.1',
  '192.168.1.1',
  '2001:db8::1',
  '::1',
  '192.0.2.10',
  '010.1.1.1',
  '1.2.3',
  'fe80::1%eth0',
  '193.0.0.0/21',
  'example.com',
];

const asn = ['AS3333', '3333', 'as3333', '3334', '1', '64512', '23456', 'AS', '1.10', '03333', '4294967296'];

export const whoisSamples: RouteSampleTable = {
  'GET /whois/dns': {
    example: { query: { domain: 'example.com' } },
    query: { domain, address },
    headers: { 'x-domain': domain },
  },
  'GET /whois/whois': {
    example: { query: { domain: 'example.com' } },
    query: { domain, raw: ['true', 'false', 'yes'] },
    headers: { 'x-domain': domain },
  },
  'GET /whois/full': {
    example: { query: { domain: 'example.com' } },
    query: { domain },
    headers: { 'x-domain': domain },
  },
  'GET /whois/ip': {
    example: { query: { address: '193.0.6.139' } },
    query: { address },
  },
  'GET /whois/asn': {
    example: { query: { asn: 'AS3333' } },
    query: { asn },
  },
};
