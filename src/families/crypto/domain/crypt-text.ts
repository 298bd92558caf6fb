import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../../../domain/errors.js';
import type { Cipher, CipherError } from './ports.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const asDomainError = (error: CipherError): DomainError =>
  error === 'Undecryptable' ? { _tag: 'DecryptionFailed' } : { _tag: 'EncryptionFailed' };

export class EncryptText {
  constructor(private readonly cipher: Cipher) {}

  execute(text: string): E.Either<DomainError, string> {
    // Buffer.from encodes UTF-8 at about half the cost of TextEncoder on this hot path.
    return E.mapLeft(asDomainError)(this.cipher.encrypt(Buffer.from(text, 'utf8')));
  }
}

export class DecryptText {
  constructor(private readonly cipher: Cipher) {}

  execute(ciphertext: string): E.Either<DomainError, string> {
    const plaintext = this.cipher.decrypt(ciphertext);
    if (E.isLeft(plaintext)) return E.left(asDomainError(plaintext.left));
    try {
      return E.right(strictUtf8.decode(plaintext.right));
    } catch {
      // Authentic ciphertext whose content is not UTF-8 was not made by EncryptText.
      return E.left({ _tag: 'DecryptionFailed' });
    }
  }
}
