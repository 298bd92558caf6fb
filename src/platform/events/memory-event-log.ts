import type { DomainEvent, EventLog, NewDomainEvent } from '../../domain/events.js';

/** The event log in memory: the in-memory stores append to it in the step of their change. */
export class MemoryEventLog implements EventLog {
  private readonly events: (DomainEvent & { handled: boolean })[] = [];
  private lastId = 0;
  /** The keys of every event written, handled or not: a key is written once. */
  private readonly keys = new Set<string>();

  /** Appends at once, for a store to call in the step that makes its change. */
  appendNow(events: readonly NewDomainEvent[] | undefined): void {
    for (const event of events ?? []) {
      if (event.key !== undefined) {
        if (this.keys.has(event.key)) continue;
        this.keys.add(event.key);
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

  async markHandled(ids: readonly string[]): Promise<void> {
    const handled = new Set(ids);
    for (let index = 0; index < this.events.length;) {
      // Handled events are of no more use to anyone: memory keeps only what waits.
      if (handled.has(this.events[index]!.id)) this.events.splice(index, 1);
      else index += 1;
    }
  }
}
