import dns2 from 'dns2';
import type { Socket } from 'node:net';

const { Packet } = dns2;
type Resource = dns2.Packet.Resource;
type Send = (response: dns2.Packet) => unknown;

/** One name's records as the fixture serves them, by type. */
export interface ZoneEntry {
  readonly A?: readonly string[];
  readonly AAAA?: readonly string[];
  readonly CNAME?: string;
  readonly MX?: readonly { exchange: string; priority: number }[];
  readonly NS?: readonly string[];
  /** Each record as its character strings. */
  readonly TXT?: readonly (readonly string[])[];
  readonly SOA?: {
    primary: string;
    admin: string;
    serial: number;
    refresh: number;
    retry: number;
    expiration: number;
    minimum: number;
  };
  readonly CAA?: readonly { flags: number; tag: string; value: string }[];
  readonly SRV?: readonly { priority: number; weight: number; port: number; target: string }[];
  /** Host names, as an address's reverse name (`10.2.0.192.in-addr.arpa`) points to them. */
  readonly PTR?: readonly string[];
}

/**
 * What the server does with every query: answer from its zone (a name it lacks is NXDOMAIN,
 * a type it lacks an empty answer), answer SERVFAIL or REFUSED, never answer (`silent`), or
 * answer NXDOMAIN to everything, the root zone included, as a stub with no DNS behind it does
 * (`nxdomain`).
 */
export type DnsBehaviour = 'normal' | 'servfail' | 'refused' | 'silent' | 'nxdomain';

export interface DnsFixture {
  /** `127.0.0.1:<port>`, UDP and TCP on the same port. */
  readonly server: string;
  behaviour: DnsBehaviour;
  /** Every question that reached it, as `TYPE name`, in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

/** What a resolver answers of the root: its servers (a resolver that says it does not exist gives no DNS). */
const ROOT: ZoneEntry = { NS: ['a.root-servers.net', 'b.root-servers.net'] };

const TYPE_NAMES = new Map<number, string>(Object.entries(Packet.TYPE).map(([name, code]) => [code, name]));
/** Answer codes (RFC 1035 §4.1.1); dns2's typings leave out its own `RCODE`. */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function answersFor(name: string, type: string, entry: ZoneEntry, ttl: number): Omit<Resource, 'toBuffer'>[] {
  const base = { name, class: Packet.CLASS.IN, ttl };
  switch (type) {
    case 'A':
      return (entry.A ?? []).map((address) => ({ ...base, type: Packet.TYPE.A, address }));
    case 'AAAA':
      return (entry.AAAA ?? []).map((address) => ({ ...base, type: Packet.TYPE.AAAA, address }));
    case 'CNAME':
      return entry.CNAME === undefined ? [] : [{ ...base, type: Packet.TYPE.CNAME, domain: entry.CNAME }];
    case 'MX':
      return (entry.MX ?? []).map(({ exchange, priority }) => ({ ...base, type: Packet.TYPE.MX, exchange, priority }));
    case 'NS':
      return (entry.NS ?? []).map((ns) => ({ ...base, type: Packet.TYPE.NS, ns }));
    case 'TXT':
      return (entry.TXT ?? []).map((data) => ({ ...base, type: Packet.TYPE.TXT, data: [...data] }));
    case 'SOA':
      return entry.SOA === undefined ? [] : [{ ...base, type: Packet.TYPE.SOA, ...entry.SOA }];
    case 'CAA':
      return (entry.CAA ?? []).map((caa) => ({ ...base, type: Packet.TYPE.CAA, ...caa }));
    case 'SRV':
      return (entry.SRV ?? []).map((srv) => ({ ...base, type: Packet.TYPE.SRV, ...srv }));
    case 'PTR':
      return (entry.PTR ?? []).map((domain) => ({ ...base, type: Packet.TYPE.PTR, domain }));
    default:
      return [];
  }
}

/**
 * A DNS server on loopback (dns2), UDP and TCP on one port as resolvers expect: a UDP answer too
 * large is truncated and asked again over TCP. Names are matched in lower case; the root zone
 * is `''`, and it has NS records as a real resolver's does unless the zone says otherwise.
 */
export async function startDnsFixture(names: Readonly<Record<string, ZoneEntry>>, ttl = 300): Promise<DnsFixture> {
  const zone: Readonly<Record<string, ZoneEntry>> = { '': ROOT, ...names };
  const queries: string[] = [];
  const state = { behaviour: 'normal' as DnsBehaviour };
  const handle = (request: dns2.Packet, send: Send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (question === undefined) return send(response);
    const type = TYPE_NAMES.get(question.type) ?? String(question.type);
    queries.push(`${type} ${question.name}`);
    if (state.behaviour === 'silent') return;
    if (state.behaviour !== 'normal') {
      response.header.rcode = { servfail: RCODE.SERVFAIL, refused: RCODE.REFUSED, nxdomain: RCODE.NXDOMAIN }[
        state.behaviour
      ];
      return send(response);
    }
    const entry = zone[question.name.toLowerCase()];
    if (entry === undefined) {
      response.header.rcode = RCODE.NXDOMAIN;
      return send(response);
    }
    response.answers.push(...(answersFor(question.name, type, entry, ttl) as Resource[]));
    send(response);
  };

  // Resolvers retry a truncated UDP answer over TCP on the same port: take one free for both.
  for (let attempt = 1; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    await udp.listen(0, '127.0.0.1');
    const { port } = udp.address();
    const tcp = dns2.createTCPServer(handle);
    const sockets = new Set<Socket>();
    tcp.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) {
      udp.close();
      if (attempt === 10) throw new Error('found no port free for both UDP and TCP');
      continue;
    }
    return Object.assign(state, {
      server: `127.0.0.1:${port}`,
      queries,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await Promise.all([
          new Promise<void>((resolve) => udp.close(() => resolve())),
          new Promise<void>((resolve) => tcp.close(() => resolve())),
        ]);
      },
    });
  }
}
