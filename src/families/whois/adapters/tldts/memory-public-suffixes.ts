import type { PublicSuffixes } from '../../domain/ports.js';

/** A public suffix list of the suffixes given (and every TLD, as the list's `*` rule says): for tests. */
export class MemoryPublicSuffixes implements PublicSuffixes {
  constructor(private readonly suffixes: ReadonlySet<string> = new Set()) {}

  registrableDomain(name: string): string | null {
    const labels = name.split('.');
    // The longest listed suffix the name ends with, or its last label; one label more is registered.
    for (let start = 0; start < labels.length; start++) {
      const suffix = labels.slice(start).join('.');
      if (this.suffixes.has(suffix) || start === labels.length - 1)
        return start === 0 ? null : labels.slice(start - 1).join('.');
    }
    return null;
  }
}
