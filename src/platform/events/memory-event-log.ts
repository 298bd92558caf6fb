import type { DomainEvent, EventLog, NewDomainEvent } from '../../domain/events.js';

/** The event log in memory: the in-memory stores append to it in the step of their change. */
export class MemoryEventLog implements EventLog {
  private readonly events: (DomainEvent & { handled: boolean })[] = [];
  private lastId = 0;
  /** The keys of every event written, handled or not, with when it happened: a key is written once. */
  private readonly keys = new Map<string, number>();

  /** Appends at once, for a store to call in the step that makes its change. */
  appendNow(events: readonly NewDomainEvent[] | undefined): void {
    for (const event of events ?? []) {
      if (event.key !== undefined) {
        if (this.keys.has(event.key)) continue;
        this.keys.set(event.key, event.at);
      }
      this.lastId += 1;
      this.events.push({ ...structuredClone(event), id: String(this.lastId), handled: false });
    }
  }

  async append(events: readonly NewDomainEvent[]): Promise<void> {
    this.appendNow(events);
  }

  async unhandled(limit: number): Promise<readonly DomainEvent[]> {
    return this.events
      .filter((event) => !event.handled)
      .slice(0, limit)
      .map(({ handled: _, ...event }) => event);
  }

  async removeHandledBefore(before: number, limit: number): Promise<number> {
    // Handled events are dropped as they are handled: only the keys of the old ones are left to forget.
    let removed = 0;
    for (const [key, at] of this.keys) {
      if (removed >= limit) break;
      const waiting = this.events.some((event) => event.key === key);
      if (at < before && !waiting) {
        this.keys.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  async markHandled(ids: readonly string[]): Promise<void> {
    const handled = new Set(ids);
    for (let index = 0; index < this.events.length;) {
      // Handled events are of no more use to anyone: memory keeps only what waits.
      if (handled.has(this.events[index]!.id)) this.events.splice(index, 1);
      else index += 1;
    }
  }
}
