/**
 * Where each answered request is counted and timed (Prometheus, StatsD, a log): once per
 * request, after the answer is decided. Called on every request, so it must return at once and
 * never throw; an adapter that ships numbers elsewhere buffers them and sends them in the
 * background.
 */
export interface Metrics {
  /**
   * `operation` is the route as `METHOD /path/pattern`, or `UNMATCHED_OPERATION` for a request no
   * route answers (a bounded set of names, fit for a label); `status` is the answer's status code.
   */
  observe(operation: string, status: number, milliseconds: number): void;
}
export const Metrics = Symbol.for('Metrics');

/** The operation of requests no route answers, so unknown paths cannot multiply the series. */
export const UNMATCHED_OPERATION = 'unmatched';

/** The default: nothing is recorded, until a deployment plugs a real sink in. */
export const NO_METRICS: Metrics = { observe: () => {} };
