import { randomBytes, randomUUID } from 'node:crypto';

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
export const Randomness = Symbol.for('Randomness');

/**
 * The operating system's CSPRNG: what the composition binds, and what a use case built without a
 * source uses. It lives here rather than among the adapters because node:crypto is pure computation
 * the domain already uses (hashes, scrypt), and a default must be reachable from the domain.
 */
export const systemRandomness: Randomness = {
  bytes: (count) => randomBytes(count),
  uuid: () => randomUUID(),
};
