import type { AuditTrail } from '../../domain/audit.js';
import type { Clock } from '../../domain/ports.js';

const sameFamilies = (a: readonly string[], b: readonly string[]): boolean =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Feature switches change with the configuration only, taking effect when a server starts: the
 * first server to start with a set of switched-off families other than the one last recorded
 * writes the change to the audit trail (none recorded: nothing was switched off). Answers whether
 * it wrote one. Two servers starting at once with the same new set may both write it.
 */
export async function recordFeatureSwitches(
  trail: AuditTrail,
  disabled: readonly string[],
  clock: Clock,
): Promise<boolean> {
  const [last] = await trail.list({ action: 'features.update', limit: 1 });
  const change = last?.changes.disabled;
  const before = change && 'new' in change && Array.isArray(change.new) ? (change.new as string[]) : [];
  if (sameFamilies(before, disabled)) return false;
  await trail.record({
    at: clock.now(),
    action: 'features.update',
    actor: { uid: null, username: null, tokenId: null, via: 'config' },
    target: { type: 'features', id: null, label: 'features.disabled' },
    changes: { disabled: { old: before, new: [...disabled] } },
    address: null,
    requestId: null,
    outcome: 'success',
    concerns: null,
  });
  return true;
}
