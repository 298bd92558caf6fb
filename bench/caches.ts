/**
 * The hand-written caches against lru-cache 11 doing the same job (issue 25), in this process,
 * LruCache as it was written by hand against LruCache on lru-cache, the others as they are against
 * the lru-cache setting nearest to them,
 * each pair in alternating rounds so both see the same machine. Prints, per case, the median
 * nanoseconds per operation of each and their ratio (lru-cache ÷ ours: above 1 means ours is
 * faster). `BENCH_ROUNDS` rounds (default 10) of `BENCH_CACHE_OPS` operations (default 200,000).
 *
 *   node --import tsx bench/caches.ts
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../src/domain/ports.js';
import type { Principal } from '../src/domain/identity/principal.js';
import { VerifiedTokenCache } from '../src/families/users-and-tokens/domain/auth/verified-token-cache.js';
import { ExpiringCache } from '../src/families/whois/domain/expiring-cache.js';
import * as t from 'io-ts';
import pino from 'pino';
import { LruCache } from '../src/platform/caching/lru-cache.js';
import { UpstreamClient } from '../src/platform/upstream/upstream-client.js';
import { cachingHostLookup } from '../src/platform/upstream/host-lookup.js';
import { fixed, median, table } from './report.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const OPS = Number(process.env.BENCH_CACHE_OPS ?? 200_000);

const clock: Clock = { now: () => Date.now() };
const perf = { now: () => clock.now() };
const keys = (count: number, prefix = 'key') =>
  Array.from({ length: count }, (_, i) => `${prefix}:${i}:${'x'.repeat(20)}`);

/** One case: two ways of doing `ops` operations, each returning when done. */
interface Case {
  readonly name: string;
  readonly ours: (ops: number) => unknown;
  readonly library: (ops: number) => unknown;
}

const cases: Case[] = [];

/** The hand-written LruCache that lru-cache replaced (issue 25), kept here to measure against. */
class HandWrittenLruCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly weight: number }>();
  private usedWeight = 0;

  constructor(private readonly budget: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.usedWeight -= old.weight;
    }
    if (weight > this.budget) return;
    this.entries.set(key, { value, weight });
    this.usedWeight += weight;
    for (const [oldest, { weight: oldestWeight }] of this.entries) {
      if (this.usedWeight <= this.budget) break;
      this.entries.delete(oldest);
      this.usedWeight -= oldestWeight;
    }
  }
}

// LruCache: hits among 500 entries of a budget of 500 (the dictionary's lemma cache, the upstream client's answers).
{
  const names = keys(500);
  const ours = new HandWrittenLruCache<string, number>(500);
  const library = new LruCache<string, number>(500);
  names.forEach((key, i) => (ours.set(key, i), library.set(key, i)));
  cases.push({
    name: 'LruCache get, hit (500 of 500)',
    ours: (ops) => {
      let sum = 0;
      for (let i = 0; i < ops; i++) sum += ours.get(names[i % 500]!)!;
      return sum;
    },
    library: (ops) => {
      let sum = 0;
      for (let i = 0; i < ops; i++) sum += library.get(names[i % 500]!)!;
      return sum;
    },
  });
}
// LruCache: a set that evicts every time (2,000 keys through 500 places).
{
  const names = keys(2_000);
  const ours = new HandWrittenLruCache<string, number>(500);
  const library = new LruCache<string, number>(500);
  cases.push({
    name: 'LruCache set, evicting (2,000 keys, 500 kept)',
    ours: (ops) => {
      for (let i = 0; i < ops; i++) ours.set(names[i % 2_000]!, i);
    },
    library: (ops) => {
      for (let i = 0; i < ops; i++) library.set(names[i % 2_000]!, i);
    },
  });
}
// LruCache weighted by bytes (the barcode cache): set and get, 1–4 KB entries in 1 MB.
{
  const names = keys(1_000);
  const weights = names.map((_, i) => 1_000 + ((i * 7919) % 3_000));
  const ours = new HandWrittenLruCache<string, number>(1_048_576);
  const library = new LruCache<string, number>(1_048_576);
  cases.push({
    name: 'LruCache by weight, get then set on miss (1,000 keys, ~400 fit)',
    ours: (ops) => {
      for (let i = 0; i < ops; i++) {
        const j = (i * 31) % 1_000;
        if (ours.get(names[j]!) === undefined) ours.set(names[j]!, i, weights[j]);
      }
    },
    library: (ops) => {
      for (let i = 0; i < ops; i++) {
        const j = (i * 31) % 1_000;
        if (library.get(names[j]!) === undefined) library.set(names[j]!, i, weights[j]);
      }
    },
  });
}
// VerifiedTokenCache: the lookup every authenticated request makes, 50 tokens in use.
{
  const secrets = keys(50, 'secret');
  const principal = { kind: 'token' } as unknown as Principal;
  const ours = new VerifiedTokenCache(clock, 60_000);
  const library = new LRUCache<string, Principal>({ max: 10_000, ttl: 60_000, perf });
  for (const secret of secrets) {
    ours.remember(secret, principal, ours.currentGeneration());
    library.set(secret, principal);
  }
  cases.push({
    name: 'VerifiedTokenCache get, hit (50 tokens)',
    ours: (ops) => {
      let found = 0;
      for (let i = 0; i < ops; i++) if (ours.get(secrets[i % 50]!)) found++;
      return found;
    },
    library: (ops) => {
      let found = 0;
      for (let i = 0; i < ops; i++) if (library.get(secrets[i % 50]!)) found++;
      return found;
    },
  });
}
// ExpiringCache: a kept DNS answer or registration (whois), each TTL its own; lru-cache's fetch with the TTL set by the fetch.
{
  const names = keys(8, 'example');
  const ours = new ExpiringCache<number>(clock, 10_000);
  const library = new LRUCache<string, number>({
    max: 10_000,
    ttl: 1,
    perf,
    fetchMethod: async (_key, _stale, { options }) => {
      options.ttl = 300_000;
      return 1;
    },
  });
  for (const name of names) {
    void ours.get(
      name,
      async () => 1,
      () => 300_000,
    );
    void library.fetch(name);
  }
  cases.push({
    name: 'ExpiringCache get, hit (8 names, awaited)',
    ours: async (ops) => {
      let sum = 0;
      for (let i = 0; i < ops; i++)
        sum += await ours.get(
          names[i % 8]!,
          async () => 1,
          () => 300_000,
        );
      return sum;
    },
    library: async (ops) => {
      let sum = 0;
      for (let i = 0; i < ops; i++) sum += (await library.fetch(names[i % 8]!))!;
      return sum;
    },
  });
}
// cachingHostLookup: one lookup per new connection to an upstream, 4 hosts.
{
  const hosts = ['a.test', 'b.test', 'c.test', 'd.test'];
  const addresses: LookupAddress[] = [{ address: '127.0.0.1', family: 4 }];
  const resolve = async () => addresses;
  const ours = cachingHostLookup({ ttlMs: 60_000, clock, resolve });
  const cache = new LRUCache<string, LookupAddress[]>({ max: 1_000, ttl: 60_000, perf, fetchMethod: resolve });
  const library: LookupFunction = (hostname, options, callback) => {
    cache.fetch(hostname).then(
      (all) => {
        const first = all![0]!;
        if (options.all) callback(null, all!);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
  const lookUp = (lookup: LookupFunction, hostname: string) =>
    new Promise<void>((done) => lookup(hostname, {}, () => done()));
  cases.push({
    name: 'cachingHostLookup, hit (4 hosts, awaited)',
    ours: async (ops) => {
      for (let i = 0; i < ops; i++) await lookUp(ours, hosts[i % 4]!);
    },
    library: async (ops) => {
      for (let i = 0; i < ops; i++) await lookUp(library, hosts[i % 4]!);
    },
  });
}

// UpstreamClient: a kept answer (weather, game, RDAP), against lru-cache's fetch with a TTL and
// stale answers allowed, the nearest it has to the client's fresh / stale / failed entries.
{
  const paths = ['/a', '/b', '/c', '/d'];
  const fetch = (async () =>
    new Response('1', { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
  const settings = {
    name: 'bench',
    baseUrl: 'http://upstream.test',
    deadlineMs: 1_000,
    maxEntries: 1_000,
    defaultBackoffMs: 1_000,
    failureTtlMs: 1_000,
    hostTtlMs: 60_000,
  };
  const ours = new UpstreamClient(settings, { logger: pino({ level: 'silent' }), fetch, clock });
  const call = { ttlMs: 60_000, decoder: t.number };
  const library = new LRUCache<string, number>({
    max: 1_000,
    ttl: 60_000,
    perf,
    allowStale: true,
    allowStaleOnFetchRejection: true,
    fetchMethod: async (path) => (await (await fetch(`${settings.baseUrl}${path}`)).json()) as number,
  });
  for (const path of paths) {
    await ours.get(path, call);
    await library.fetch(path);
  }
  cases.push({
    name: 'UpstreamClient get, hit (4 paths, awaited)',
    ours: async (ops) => {
      let found = 0;
      for (let i = 0; i < ops; i++) if ((await ours.get(paths[i % 4]!, call)).kind === 'found') found++;
      return found;
    },
    library: async (ops) => {
      let found = 0;
      for (let i = 0; i < ops; i++) if ((await library.fetch(paths[i % 4]!)) !== undefined) found++;
      return found;
    },
  });
}

async function time(run: (ops: number) => unknown): Promise<number> {
  const started = performance.now();
  await run(OPS);
  return ((performance.now() - started) * 1e6) / OPS;
}

console.log(`${ROUNDS} alternating rounds of ${OPS} operations per case; ns per operation, medians`);
const rows = [['case', 'ours', 'lru-cache', 'lru-cache ÷ ours', 'ratio per round (min–max)']];
for (const { name, ours, library } of cases) {
  await ours(OPS); // warm-up, both
  await library(OPS);
  const nsOurs: number[] = [];
  const nsLibrary: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Each goes first in every other round.
    if (round % 2 === 0) {
      nsOurs.push(await time(ours));
      nsLibrary.push(await time(library));
    } else {
      nsLibrary.push(await time(library));
      nsOurs.push(await time(ours));
    }
    ratios.push(nsLibrary.at(-1)! / nsOurs.at(-1)!);
  }
  rows.push([
    name,
    fixed(median(nsOurs), 0),
    fixed(median(nsLibrary), 0),
    fixed(median(ratios), 2),
    `${fixed(Math.min(...ratios), 2)}–${fixed(Math.max(...ratios), 2)}`,
  ]);
}
console.log(table(rows));
