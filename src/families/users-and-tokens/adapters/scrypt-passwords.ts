import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HIGHEST_PASSWORD_COST, LOWEST_PASSWORD_COST, STANDARD_PASSWORD_COST } from '../domain/users/password.js';
import type { Passwords } from '../domain/users/ports.js';

const BLOCK_SIZE = 8;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

interface ScryptParameters {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

const derive = (password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

/**
 * Passwords hashed with scrypt as `scrypt$N$r$p$salt$hash` (salt and hash in base64url). The
 * parameters travel with each hash, so a hash made at another cost still verifies.
 */
export class ScryptPasswords implements Passwords {
  private readonly params: ScryptParameters;
  private unknowable: Promise<string> | undefined;

  constructor(cost: number = STANDARD_PASSWORD_COST) {
    if (!Number.isInteger(cost) || cost < LOWEST_PASSWORD_COST || cost > HIGHEST_PASSWORD_COST) {
      throw new RangeError(
        `scrypt cost must be an integer from ${LOWEST_PASSWORD_COST} to ${HIGHEST_PASSWORD_COST}, not ${cost}`,
      );
    }
    this.params = { N: 2 ** cost, r: BLOCK_SIZE, p: 1 };
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, this.params);
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64url');
    const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /**
   * A hash of a random password nobody knows, made once at the cost of every new real one:
   * verifying against it costs what a wrong password costs, so an unknown user or one without a
   * password cannot be told from a known one by the time an answer takes.
   */
  hashNobodyKnows(): Promise<string> {
    this.unknowable ??= this.hash(randomBytes(24).toString('base64url'));
    return this.unknowable;
  }
}
