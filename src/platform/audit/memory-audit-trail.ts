import type { AuditEntry, AuditQuery, AuditTrail, StoredAuditEntry } from '../../domain/audit.js';
import { MemoryEventLog } from '../events/memory-event-log.js';

/**
 * The audit trail in memory, for tests and for running with `storage: "memory"`. The in-memory
 * stores append to it in the same synchronous step as their change, which is their transaction.
 */
export class MemoryAuditTrail implements AuditTrail {
  private readonly entries: StoredAuditEntry[] = [];
  private lastId = 0;

  /** `events`: where the events an entry announces go, in the same step. */
  constructor(readonly events: MemoryEventLog = new MemoryEventLog()) {}

  /** Appends at once, for a store to call in the step that makes its change. */
  append(entry: AuditEntry | undefined): void {
    if (entry === undefined) return;
    this.lastId += 1;
    const { events, ...written } = entry;
    this.entries.push(structuredClone({ ...written, id: String(this.lastId) }));
    this.events.appendNow(events);
  }

  async record(entry: AuditEntry): Promise<void> {
    this.append(entry);
  }

  async list(query: AuditQuery): Promise<StoredAuditEntry[]> {
    const page: StoredAuditEntry[] = [];
    for (let index = this.entries.length - 1; index >= 0 && page.length < query.limit; index -= 1) {
      const entry = this.entries[index]!;
      if (
        (query.actor === undefined || entry.actor.uid === query.actor) &&
        (query.target === undefined || entry.target.id === query.target) &&
        (query.action === undefined || entry.action === query.action) &&
        (query.from === undefined || entry.at >= query.from) &&
        (query.to === undefined || entry.at < query.to) &&
        (query.before === undefined || Number(entry.id) < Number(query.before)) &&
        (query.ownedBy === undefined ||
          entry.actor.uid === query.ownedBy.uid ||
          entry.concerns === query.ownedBy.userId)
      )
        page.push(entry);
    }
    return page;
  }

  async removeOlderThan(before: number, limit: number): Promise<number> {
    let removed = 0;
    for (let index = 0; index < this.entries.length && removed < limit;) {
      if (this.entries[index]!.at < before) {
        this.entries.splice(index, 1);
        removed += 1;
      } else index += 1;
    }
    return removed;
  }
}
