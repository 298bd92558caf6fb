import { randomBytes, randomUUID } from 'node:crypto';
import type { Randomness } from '../../domain/ports.js';

/**
 * The operating system's CSPRNG: the `Randomness` the composition binds unless a test brings its
 * own (a seeded one makes ids predictable). The domain reaches it only through the port.
 */
export const systemRandomness: Randomness = {
  bytes: (count) => randomBytes(count),
  uuid: () => randomUUID(),
};
