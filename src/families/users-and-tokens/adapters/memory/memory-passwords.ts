import { createHash, timingSafeEqual } from 'node:crypto';
import type { Passwords } from '../../domain/users/ports.js';

const digestOf = (salt: string, password: string): Buffer =>
  createHash('sha256')
    .update(`${salt}:${password.normalize('NFKC')}`)
    .digest();

/**
 * Passwords hashed at once, for tests that hash many and for no production use: one SHA-256 of
 * a salt (a count, so each hash differs) and the password, as `memory$salt$hash`. It keeps the
 * port's promises (a hash verifies only its password, in any Unicode form that NFKC makes the
 * same; no password matches `hashNobodyKnows`), not its cost: nothing here is slow to guess.
 */
export class MemoryPasswords implements Passwords {
  private hashes = 0;

  async hash(password: string): Promise<string> {
    const salt = String(++this.hashes);
    return ['memory', salt, digestOf(salt, password).toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, salt, hash, ...rest] = stored.split('$');
    if (scheme !== 'memory' || !salt || !hash || rest.length > 0) return false;
    const expected = Buffer.from(hash, 'base64url');
    const actual = digestOf(salt, password);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** A salt `hash` never gives, over a digest (all zeros) no password is known to have: nothing verifies against it. */
  async hashNobodyKnows(): Promise<string> {
    return `memory$nobody$${Buffer.alloc(32).toString('base64url')}`;
  }
}
