import type { PassphraseWords } from '../domain/ports.js';

/**
 * The EFF's long word list (7,776 words chosen to be easy to type and tell apart) as
 * secure-password-utilities ships it, less its four hyphenated words (7,772 remain), which the
 * passphrase's separator would split. Read on the first passphrase, not at start.
 */
export class EffLongWordList implements PassphraseWords {
  private loaded: Promise<readonly string[]> | undefined;

  list(): Promise<readonly string[]> {
    this.loaded ??= import('secure-password-utilities/wordlists').then(({ DEFAULT_WORDLIST }) => DEFAULT_WORDLIST);
    return this.loaded;
  }
}
