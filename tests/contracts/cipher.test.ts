import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { AesGcmCipher } from '../../src/families/crypto/adapters/aes-gcm-cipher.js';
import type { Cipher } from '../../src/families/crypto/domain/ports.js';
import { expectRight } from '../support/either.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const oldKey = randomBytes(32);
const currentKey = randomBytes(32);

/** The Cipher port has one adapter, pure computation with no outside system; it is its own in-memory adapter. */
const cipherAdapters: { name: string; make: (current: Buffer, previous: Buffer[]) => Cipher }[] = [
  { name: 'AES-256-GCM', make: (current, previous) => new AesGcmCipher({ current, previous }) },
];

for (const adapter of cipherAdapters) {
  describe(`contract: Cipher (${adapter.name})`, () => {
    const cipher = adapter.make(currentKey, [oldKey]);

    it('round-trips bytes into a URL-safe string', () => {
      const plaintext = randomBytes(1000);
      const ciphertext = expectRight(cipher.encrypt(plaintext));
      expect(ciphertext).to.match(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(expectRight(cipher.decrypt(ciphertext)))).to.deep.equal(plaintext);
    });

    it('uses a fresh nonce each time: the same text never encrypts the same way twice', () => {
      const seen = new Set(Array.from({ length: 50 }, () => expectRight(cipher.encrypt(utf8('same')))));
      expect(seen.size).to.equal(50);
    });

    it('never repeats a nonce, across many more messages than one draw of randomness covers', () => {
      const nonces = new Set<string>();
      for (let i = 0; i < 5000; i++)
        nonces.add(
          Buffer.from(expectRight(cipher.encrypt(utf8('x'))), 'base64url')
            .subarray(5, 17)
            .toString('hex'),
        );
      expect(nonces.size).to.equal(5000);
    });

    it('never makes a ciphertext longer than it announces', () => {
      for (const size of [0, 1, 2, 3, 100, 8192]) {
        expect(expectRight(cipher.encrypt(randomBytes(size))).length).to.be.at.most(cipher.ciphertextLength(size));
      }
    });

    it('still decrypts what an older key encrypted after the key is rotated', () => {
      const beforeRotation = expectRight(adapter.make(oldKey, []).encrypt(utf8('kept')));
      expect(new TextDecoder().decode(expectRight(cipher.decrypt(beforeRotation)))).to.equal('kept');
    });

    it('calls tampered, truncated, foreign and garbage input Undecryptable', () => {
      const good = expectRight(cipher.encrypt(utf8('hello world')));
      const bytes = Buffer.from(good, 'base64url');
      const flipped = (index: number) => {
        const copy = Buffer.from(bytes);
        copy[index]! ^= 1;
        return copy.toString('base64url');
      };
      const candidates = {
        'a flipped key id byte': flipped(1),
        'a flipped nonce byte': flipped(6),
        'a flipped body byte': flipped(20),
        'a flipped tag byte': flipped(bytes.length - 1),
        'a cut-off tail': good.slice(0, -4),
        'only the header': good.slice(0, 10),
        'a foreign key': expectRight(adapter.make(randomBytes(32), []).encrypt(utf8('hello world'))),
        'not base64url': `${good.slice(0, 10)}+/=${good.slice(10)}`,
        'the empty string': '',
        garbage: 'hello',
      };
      for (const [what, input] of Object.entries(candidates)) {
        expect(cipher.decrypt(input), what).to.deep.equal(E.left('Undecryptable'));
      }
    });
  });
}
