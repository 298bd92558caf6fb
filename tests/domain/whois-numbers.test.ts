import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryNumberSource } from '../../src/families/whois/adapters/rdap/memory-number-source.js';
import {
  networksOfRange,
  networkText,
  parseAsNumber,
  parseIpAddress,
  reverseName,
  type IpAddress,
} from '../../src/families/whois/domain/ip-address.js';
import { LookUpAutonomousSystem, LookUpIpNetwork } from '../../src/families/whois/domain/number-lookups.js';
import type {
  AutonomousSystemRegistration,
  NetworkRegistration,
} from '../../src/families/whois/domain/number-registration.js';
import type { NumberRegistrationSource } from '../../src/families/whois/domain/ports.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { ManualClock } from '../support/manual-clock.js';

const ip = (text: string): IpAddress => expectRight(parseIpAddress(text, 'address'));

const NETWORK: NetworkRegistration = {
  handle: 'NET-1',
  name: 'EXAMPLE-NET',
  type: null,
  country: 'NL',
  status: [],
  registrant: null,
  abuse: null,
  created: null,
  updated: null,
  rdapUrl: 'https://rdap.example/ip/193.0.0.0',
  ipVersion: 'v4',
  startAddress: '193.0.0.0',
  endAddress: '193.0.7.255',
  cidrs: ['193.0.0.0/21'],
  parentHandle: null,
};
const AUTONOMOUS_SYSTEM: AutonomousSystemRegistration = {
  handle: 'AS3333',
  name: 'EXAMPLE-AS',
  type: null,
  country: null,
  status: [],
  registrant: null,
  abuse: null,
  created: null,
  updated: null,
  rdapUrl: 'https://rdap.example/autnum/3333',
  startAutnum: 3333,
  endAutnum: 3333,
};

/** A source that counts the questions it hears, what caching and "asked nobody" are judged by. */
function countingSource(): { asked: string[]; port: NumberRegistrationSource } {
  const source = new MemoryNumberSource({
    servedNetworks: ['193.0.0.0/8'],
    servedAsNumbers: [{ from: 3000, to: 4000 }],
    networks: new Map([['193.0.0.0/21', NETWORK]]),
    autonomousSystems: [AUTONOMOUS_SYSTEM],
  });
  const asked: string[] = [];
  return {
    asked,
    port: {
      network: (address) => (asked.push(address.text), source.network(address)),
      autonomousSystem: (asn) => (asked.push(`AS${asn}`), source.autonomousSystem(asn)),
    },
  };
}

describe('domain: IP addresses and AS numbers', () => {
  it('reads IPv4 and IPv6 addresses strictly, writing IPv6 as RFC 5952 does', () => {
    expect(ip('193.0.6.139').text).to.equal('193.0.6.139');
    expect(ip('2001:0DB8:0000:0000:0001:0000:0000:0001').text).to.equal('2001:db8::1:0:0:1');
    expect(ip('1:0:0:2:0:0:0:3').text).to.equal('1:0:0:2::3');
    expect(ip('1:2:3:4:5:6:7::').text).to.equal('1:2:3:4:5:6:7:0');
    expect(ip('::FFFF:c100:068b').text).to.equal('::ffff:193.0.6.139');
    for (const refused of [
      '1.2.3.4.5',
      '1.2.3.04',
      '0x7f.0.0.1',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1::2:3:4:5:6:7:8',
      '::1.2.3',
      '12345::',
    ])
      expect(E.isLeft(parseIpAddress(refused, 'address')), refused).to.equal(true);
  });

  it('names the reverse name of an address as DNS keeps its PTR records', () => {
    expect(reverseName(ip('193.0.6.139'))).to.equal('139.6.0.193.in-addr.arpa');
    expect(reverseName(ip('2001:db8::567:89ab'))).to.equal(
      'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
  });

  it('writes a range as the fewest networks that make it up', () => {
    const cidrs = (first: string, last: string) => networksOfRange(ip(first), ip(last)).map(networkText);
    expect(cidrs('193.0.0.0', '193.0.7.255')).to.deep.equal(['193.0.0.0/21']);
    expect(cidrs('10.0.0.1', '10.0.0.6')).to.deep.equal(['10.0.0.1/32', '10.0.0.2/31', '10.0.0.4/31', '10.0.0.6/32']);
    expect(cidrs('0.0.0.0', '255.255.255.255')).to.deep.equal(['0.0.0.0/0']);
    expect(cidrs('2001:67c:2e8::', '2001:67c:2e8:ffff:ffff:ffff:ffff:ffff')).to.deep.equal(['2001:67c:2e8::/48']);
    expect(cidrs('193.0.0.1', '193.0.0.0')).to.deep.equal([]);
    expect(cidrs('193.0.0.0', '2001::')).to.deep.equal([]);
  });

  it('reads an AS number with or without AS, and nothing else', () => {
    expect(parseAsNumber('AS3333', 'asn')).to.deep.equal(E.right(3333));
    expect(parseAsNumber('as4294967295', 'asn')).to.deep.equal(E.right(4_294_967_295));
    for (const refused of ['', 'AS', 'AS-1', '1.10', '+3333', '3333 ', 'AS03333', '4294967296', 'ASN3333'])
      expect(E.isLeft(parseAsNumber(refused, 'asn')), refused).to.equal(true);
  });
});

describe('domain: number lookups', () => {
  const settings = { ttlMs: 60_000, maxEntries: 10 };

  it('answers the network of an address in its canonical form, kept for the TTL whatever form it is asked in', async () => {
    const clock = new ManualClock();
    const source = countingSource();
    const lookUp = new LookUpIpNetwork(source.port, clock, settings);
    expect(expectRight(await lookUp.execute({ address: '193.0.6.139' }))).to.deep.equal({
      address: '193.0.6.139',
      ...NETWORK,
    });
    await lookUp.execute({ address: '193.0.6.139' });
    expect(source.asked).to.deep.equal(['193.0.6.139']);
    clock.advance(60_000);
    await lookUp.execute({ address: '193.0.6.139' });
    expect(source.asked).to.have.length(2);
  });

  it('refuses a missing or malformed address, and answers 22 for a special-purpose one, asking nobody', async () => {
    const source = countingSource();
    const lookUp = new LookUpIpNetwork(source.port, new ManualClock(), settings);
    expectLeftTag(await lookUp.execute({}), 'MissingInput');
    expectLeftTag(await lookUp.execute({ address: '193.0.6' }), 'InvalidInput');
    expectLeftTag(await lookUp.execute({ address: '10.1.2.3' }), 'InformationNotFound');
    expectLeftTag(await lookUp.execute({ address: 'fe80::1' }), 'InformationNotFound');
    expect(source.asked).to.deep.equal([]);
    expectLeftTag(await lookUp.execute({ address: '193.0.8.1' }), 'InformationNotFound');
    expectLeftTag(await lookUp.execute({ address: '1.1.1.1' }), 'InformationNotFound');
    expect(source.asked).to.deep.equal(['193.0.8.1', '1.1.1.1']);
  });

  it('answers the block of an AS number, and 22 for a private one without asking', async () => {
    const source = countingSource();
    const lookUp = new LookUpAutonomousSystem(source.port, new ManualClock(), settings);
    expect(expectRight(await lookUp.execute({ asn: 'AS3333' }))).to.deep.equal({ asn: 3333, ...AUTONOMOUS_SYSTEM });
    expectLeftTag(await lookUp.execute({ asn: '65000' }), 'InformationNotFound');
    expectLeftTag(await lookUp.execute({ asn: '3334' }), 'InformationNotFound');
    expectLeftTag(await lookUp.execute({ asn: 'AS3.3' }), 'InvalidInput');
    expectLeftTag(await lookUp.execute({}), 'MissingInput');
    expect(source.asked).to.deep.equal(['AS3333', 'AS3334']);
  });
});
