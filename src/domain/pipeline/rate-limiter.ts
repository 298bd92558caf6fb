import type { RateLimiter } from './ports.js';

/** The default: every request is admitted, until a deployment plugs a real limiter in. */
export const ADMIT_EVERY_REQUEST: RateLimiter = { admit: () => undefined };
