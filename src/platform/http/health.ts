import type { Logger } from 'pino';
import type { DependencyCheck } from '../health/ports.js';

/**
 * `/livez` and `/readyz` as draft-inadarei-api-health-check describes a health document
 * (`application/health+json`): `pass` and `warn` answer 200, `fail` 503, so that a load balancer
 * or an orchestrator needs to read no more than the status code.
 */
export type HealthStatus = 'pass' | 'warn' | 'fail';

export interface CheckResult {
  readonly componentType: DependencyCheck['componentType'];
  /** How long it took to answer, or to be given up on. */
  readonly observedValue: number;
  readonly observedUnit: 'ms';
  readonly status: HealthStatus;
  readonly time: string;
  readonly output?: string;
}

export interface HealthDocument {
  readonly status: HealthStatus;
  readonly description: string;
  readonly output?: string;
  /** By `<component>:responseTime`, the draft's `{componentName}:{measurementName}`. */
  readonly checks?: Readonly<Record<string, readonly CheckResult[]>>;
}

export const HEALTH_CONTENT_TYPE = 'application/health+json';
export const statusCodeOf = (document: HealthDocument): number => (document.status === 'fail' ? 503 : 200);

const DESCRIPTION = 'utility-api';
/** What readiness waits for each dependency's answer: beyond it, the dependency counts as down. */
export const READINESS_DEADLINE_MS = 1_000;
const WORST_FIRST: readonly HealthStatus[] = ['fail', 'warn', 'pass'];

/** What a failed check says to whoever asks: readiness answers without a token. */
const NO_ANSWER = 'does not answer';

/**
 * The instance's liveness (the process answers) and readiness (each dependency answers within
 * the deadline, and the instance is not stopping). Readiness fails the moment a stop begins, before
 * anything else stops, so that a load balancer sends no more work while the rest drains.
 * Concurrent readiness questions share one round of probes.
 *
 * Anyone may ask, so a failed check names no address and no error text of the dependency's; the
 * log says why, once when a dependency stops answering and once when it answers again.
 */
export class Health {
  private draining = false;
  private probing: Promise<HealthDocument> | undefined;
  /** The components whose last probe failed. */
  private readonly down = new Set<string>();

  constructor(
    private readonly dependencies: readonly DependencyCheck[],
    private readonly deadlineMs = READINESS_DEADLINE_MS,
    private readonly logger?: Pick<Logger, 'warn' | 'info'>,
  ) {}

  beginDrain(): void {
    this.draining = true;
  }

  live(): HealthDocument {
    return { status: 'pass', description: DESCRIPTION };
  }

  ready(): Promise<HealthDocument> {
    if (this.draining)
      return Promise.resolve({
        status: 'fail',
        description: DESCRIPTION,
        output: 'stopping: finishing the requests received, taking no new ones',
      });
    this.probing ??= this.probeAll().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probeAll(): Promise<HealthDocument> {
    const results = await Promise.all(
      this.dependencies.map(async (dependency) => [dependency.component, await this.probe(dependency)] as const),
    );
    const status = WORST_FIRST.find((candidate) => results.some(([, result]) => result.status === candidate)) ?? 'pass';
    return {
      status,
      description: DESCRIPTION,
      checks: Object.fromEntries(results.map(([component, result]) => [`${component}:responseTime`, [result]])),
    };
  }

  private async probe(dependency: DependencyCheck): Promise<CheckResult> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadlineError = new Error(`no answer within ${this.deadlineMs} ms`);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(deadlineError), this.deadlineMs);
    });
    let failure: unknown;
    try {
      await Promise.race([dependency.probe(), deadline]);
    } catch (error) {
      failure = error ?? new Error('rejected with no reason');
    } finally {
      clearTimeout(timer);
    }
    const measured = {
      componentType: dependency.componentType,
      observedValue: Math.round(performance.now() - started),
      observedUnit: 'ms' as const,
      time: new Date().toISOString(),
    };
    this.remember(dependency, failure);
    if (failure === undefined) return { ...measured, status: 'pass' };
    const consequence = dependency.degraded === undefined ? '' : `; ${dependency.degraded}`;
    return {
      ...measured,
      status: dependency.whenDown,
      output: `${failure === deadlineError ? deadlineError.message : NO_ANSWER}${consequence}`,
    };
  }

  private remember({ component }: DependencyCheck, failure: unknown): void {
    if (failure === undefined) {
      if (this.down.delete(component)) this.logger?.info({ component }, 'readiness: the dependency answers again');
      return;
    }
    if (this.down.has(component)) return;
    this.down.add(component);
    this.logger?.warn({ component, err: failure }, 'readiness: a dependency does not answer');
  }
}

/** The health document as the OpenAPI document describes it. */
export const HEALTH_DOCUMENT_SCHEMA = {
  type: 'object',
  required: ['status', 'description'],
  properties: {
    status: { enum: ['pass', 'warn', 'fail'] },
    description: { type: 'string' },
    output: { type: 'string' },
    checks: {
      type: 'object',
      additionalProperties: {
        type: 'array',
        items: {
          type: 'object',
          required: ['componentType', 'observedValue', 'observedUnit', 'status', 'time'],
          properties: {
            componentType: { enum: ['datastore', 'component'] },
            observedValue: { type: 'integer', minimum: 0 },
            observedUnit: { const: 'ms' },
            status: { enum: ['pass', 'warn', 'fail'] },
            time: { type: 'string' },
            output: { type: 'string' },
          },
        },
      },
    },
  },
} as const;
