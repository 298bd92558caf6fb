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

export const whoisSamples: RouteSampleTable = {
  'GET /whois/dns': {
    example: { query: { domain: 'example.com' } },
    query: { domain },
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
};
