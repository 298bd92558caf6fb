import type { RateLimiter } from './ports.js';

/** Every request admitted and counted under no policy: what a library user's app does unless told otherwise. */
export const ADMIT_EVERY_REQUEST: RateLimiter = { admit: () => undefined };
