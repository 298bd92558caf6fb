import { identifier } from '../../domain/identifier.js';
/**
 * Something outside the process that an instance needs (its database, the Redis that shares its
 * counters), as readiness asks after it. `probe` resolves once the dependency has answered and
 * rejects when it cannot; the caller sets the deadline.
 */
export interface DependencyCheck {
  /** How the health document names it: `database`, `redis`. */
  readonly component: string;
  /** The health document's component type: `datastore` for what stores, `component` for the rest. */
  readonly componentType: 'datastore' | 'component';
  /**
   * What its silence means for readiness: `fail` when the instance cannot serve without it,
   * `warn` when it serves on in a degraded way (and `degraded` says how).
   */
  readonly whenDown: 'fail' | 'warn';
  readonly degraded?: string;
  probe(): Promise<void>;
}
export const DependencyCheck = identifier<DependencyCheck>('DependencyCheck');
