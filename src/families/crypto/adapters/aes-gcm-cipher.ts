import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { Cipher, CipherError } from '../domain/ports.js';
import type { Randomness } from '../../../domain/ports.js';
import { systemRandomness } from '../../../platform/randomness/system-randomness.js';

/**
 * AES-256-GCM with a random 96-bit nonce per message. A ciphertext is base64url of
 *   version (1) | key id (4) | nonce (12) | encrypted bytes | tag (16)
 * where the header (version and key id) is authenticated as additional data. The key id lets
 * older keys decrypt what they encrypted after the current key is rotated.
 */
const VERSION = 1;
const KEY_ID_BYTES = 4;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const OVERHEAD = HEADER_BYTES + NONCE_BYTES + TAG_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Nonces drawn per call to the system's random source: one draw costs as much as an encryption. */
const NONCES_PER_DRAW = 1024;

export interface KeyRing {
  readonly current: Buffer;
  readonly previous: readonly Buffer[];
}

/** The first four bytes of the key's SHA-256: names a key without revealing it. */
export const keyIdOf = (key: Buffer): Buffer => createHash('sha256').update(key).digest().subarray(0, KEY_ID_BYTES);

export class AesGcmCipher implements Cipher {
  private readonly header: Buffer;
  private readonly keysById = new Map<string, Buffer>();
  private nonces: Buffer = Buffer.alloc(0);
  private nextNonce = 0;

  constructor(
    private readonly keys: KeyRing,
    private readonly randomness: Randomness = systemRandomness,
  ) {
    for (const key of [keys.current, ...keys.previous]) {
      if (key.length !== 32) throw new Error('AES-256-GCM needs 32-byte keys');
      const id = keyIdOf(key).toString('hex');
      if (!this.keysById.has(id)) this.keysById.set(id, key);
    }
    this.header = Buffer.concat([Buffer.of(VERSION), keyIdOf(keys.current)]);
  }

  encrypt(plaintext: Uint8Array): E.Either<CipherError, string> {
    try {
      const nonce = this.freshNonce();
      const cipher = createCipheriv('aes-256-gcm', this.keys.current, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(this.header);
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return E.right(Buffer.concat([this.header, nonce, body, cipher.getAuthTag()]).toString('base64url'));
    } catch {
      return E.left('CipherFailure');
    }
  }

  decrypt(ciphertext: string): E.Either<CipherError, Uint8Array> {
    if (!BASE64URL.test(ciphertext)) return E.left('Undecryptable');
    const bytes = Buffer.from(ciphertext, 'base64url');
    if (bytes.length < OVERHEAD || bytes[0] !== VERSION) return E.left('Undecryptable');
    const key = this.keysById.get(bytes.subarray(1, HEADER_BYTES).toString('hex'));
    if (!key) return E.left('Undecryptable');
    const nonce = bytes.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(bytes.subarray(0, HEADER_BYTES));
      decipher.setAuthTag(tag);
      return E.right(
        Buffer.concat([
          decipher.update(bytes.subarray(HEADER_BYTES + NONCE_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]),
      );
    } catch {
      // GCM reports a wrong key, a changed byte and a cut-off message alike: the input is not ours.
      return E.left('Undecryptable');
    }
  }

  /** 96 bits from the randomness source (the CSPRNG in production), each used once: random GCM nonces, drawn in bulk. */
  private freshNonce(): Buffer {
    if (this.nextNonce >= this.nonces.length) {
      this.nonces = this.randomness.bytes(NONCE_BYTES * NONCES_PER_DRAW);
      this.nextNonce = 0;
    }
    const nonce = this.nonces.subarray(this.nextNonce, this.nextNonce + NONCE_BYTES);
    this.nextNonce += NONCE_BYTES;
    return nonce;
  }

  ciphertextLength(plaintextBytes: number): number {
    return Math.ceil(((plaintextBytes + OVERHEAD) * 4) / 3);
  }
}
