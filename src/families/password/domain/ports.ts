import { identifier } from '../../../domain/identifier.js';

/**
 * The words a passphrase is drawn from: distinct, lower-case letters a–z only (so that words
 * joined by a hyphen split back into the same words), the same list on every call.
 */
export interface PassphraseWords {
  list(): Promise<readonly string[]>;
}
export const PassphraseWords = identifier<PassphraseWords>('PassphraseWords');
