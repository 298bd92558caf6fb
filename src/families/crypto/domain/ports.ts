import { identifier } from '../../../domain/identifier.js';
import type * as E from 'fp-ts/lib/Either.js';

/**
 * `Undecryptable`: the input is not a ciphertext of ours (tampered, truncated, foreign, garbage).
 * `CipherFailure`: our side failed (a key or the cipher library); the caller is not at fault.
 */
export type CipherError = 'Undecryptable' | 'CipherFailure';

/** Authenticated encryption of bytes into a URL-safe string and back. */
export interface Cipher {
  encrypt(plaintext: Uint8Array): E.Either<CipherError, string>;
  decrypt(ciphertext: string): E.Either<CipherError, Uint8Array>;
  /** The longest ciphertext `encrypt` can produce for a plaintext of `plaintextBytes` bytes. */
  ciphertextLength(plaintextBytes: number): number;
}
export const Cipher = identifier<Cipher>('Cipher');
