import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { AesGcmCipher } from '../../src/families/crypto/adapters/aes-gcm-cipher.js';
import { DecryptText, EncryptText } from '../../src/families/crypto/domain/crypt-text.js';
import type { Cipher } from '../../src/families/crypto/domain/ports.js';
import { expectLeftTag, expectRight } from '../support/either.js';

/** A cipher whose machinery is broken on our side: stands in for an OpenSSL failure. */
const brokenCipher: Cipher = {
  encrypt: () => E.left('CipherFailure'),
  decrypt: () => E.left('CipherFailure'),
  ciphertextLength: (n) => n,
};

describe('domain: encrypt and decrypt text', () => {
  const cipher = new AesGcmCipher({ current: randomBytes(32), previous: [] });
  const encrypt = new EncryptText(cipher);
  const decrypt = new DecryptText(cipher);

  it('round-trips UTF-8 text, emoji and the empty string included', () => {
    for (const text of ['hello', 'héllo wörld', '👩‍💻 🔐 ✓', '', '\u0000 nul and \n newline']) {
      expect(expectRight(decrypt.execute(expectRight(encrypt.execute(text))))).to.equal(text);
    }
  });

  it('maps a failure on our side to EncryptionFailed, both ways', () => {
    expectLeftTag(new EncryptText(brokenCipher).execute('hello'), 'EncryptionFailed');
    expectLeftTag(new DecryptText(brokenCipher).execute('abc'), 'EncryptionFailed');
  });

  it('maps input that is not our ciphertext to DecryptionFailed', () => {
    expectLeftTag(decrypt.execute('not a ciphertext'), 'DecryptionFailed');
  });

  it('refuses authentic ciphertext whose content is not UTF-8 text', () => {
    const binary = expectRight(cipher.encrypt(Uint8Array.of(0xff, 0xfe, 0xfd)));
    expectLeftTag(decrypt.execute(binary), 'DecryptionFailed');
  });
});
