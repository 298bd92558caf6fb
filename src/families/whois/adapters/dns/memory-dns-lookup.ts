import type { DnsLookup, DnsResult } from '../../domain/ports.js';
import type { DnsRecords } from '../../domain/records.js';

/** DNS held in memory: for tests of the domain and for running without the network. Names it lacks do not exist. */
export class MemoryDnsLookup implements DnsLookup {
  constructor(
    private readonly zone: ReadonlyMap<string, DnsRecords> = new Map(),
    private readonly ttlMs?: number,
  ) {}

  async records(name: string): Promise<DnsResult> {
    const records = this.zone.get(name);
    return records === undefined ? { kind: 'not-found' } : { kind: 'found', records, ttlMs: this.ttlMs };
  }
}
