import type { Metrics } from './ports.js';

/** The operation of requests no route answers, so unknown paths cannot multiply the series. */
export const UNMATCHED_OPERATION = 'unmatched';

/** The default: nothing is recorded, until a deployment plugs a real sink in. */
export const NO_METRICS: Metrics = { observe: () => {} };
