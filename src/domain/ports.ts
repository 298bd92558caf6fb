import { identifier } from './identifier.js';
/** Time as the domain sees it: milliseconds since the Unix epoch. */
export interface Clock {
  now(): number;
}
export const Clock = identifier<Clock>('Clock');

/**
 * Chance as the domain sees it: ids, uids, secrets, licences and nonces all come from here, so
 * that a test can make them predictable by giving a seeded source (tests/support/seeded-randomness.ts).
 */
export interface Randomness {
  /** `count` uniformly random bytes; anything secret is made of these, so they must be unguessable in production. */
  bytes(count: number): Buffer;
  /** A version 4 UUID. */
  uuid(): string;
}
export const Randomness = identifier<Randomness>('Randomness');
