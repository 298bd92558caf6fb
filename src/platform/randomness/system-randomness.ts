import { randomBytes, randomUUID } from 'node:crypto';
import type { Randomness } from '../../domain/ports.js';

/**
 * The operating system's CSPRNG: what the composition binds, and what a use case built without a
 * source uses. It lives here rather than among the adapters because node:crypto is pure computation
 * the domain already uses (hashes, scrypt), and a default must be reachable from the domain.
 */
export const systemRandomness: Randomness = {
  bytes: (count) => randomBytes(count),
  uuid: () => randomUUID(),
};
