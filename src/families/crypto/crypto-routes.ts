import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { DecryptText, EncryptText } from './domain/crypt-text.js';
import { CryptoPermission } from './domain/permissions.js';
import { utf8UpTo } from '../../platform/http/codecs.js';
import { required } from '../../platform/http/fields.js';
import { defineRoute, text, type Redirect, type Route } from '../../platform/http/route-table.js';

export interface CryptoRouteDependencies {
  readonly encrypt: EncryptText;
  readonly decrypt: DecryptText;
  readonly maxPlaintextBytes: number;
  /** The longest ciphertext a maximal plaintext encrypts to: anything longer cannot be ours. */
  readonly maxCiphertextLength: number;
}

export function cryptoRoutes(deps: CryptoRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/crypto/enc',
      permission: CryptoPermission.CryptographyEncrypt,
      summary: 'Encrypt text (AES-256-GCM) into a URL-safe string',
      query: { data: required(utf8UpTo(deps.maxPlaintextBytes), 'the text to encrypt') },
      produces: 'text/plain',
      response: t.string,
      errors: ['EncryptionFailed'],
      handle: ({ query }) => E.map(text)(deps.encrypt.execute(query.data)),
    }),
    defineRoute({
      method: 'GET',
      path: '/crypto/dec',
      permission: CryptoPermission.CryptographyDecrypt,
      summary: 'Decrypt a string made by /crypto/enc back into its text',
      query: { data: required(utf8UpTo(deps.maxCiphertextLength), 'a ciphertext from /crypto/enc') },
      produces: 'text/plain',
      response: t.string,
      errors: ['DecryptionFailed'],
      handle: ({ query }) => E.map(text)(deps.decrypt.execute(query.data)),
    }),
  ];
}

/** The paths these endpoints had before they were renamed. */
export const cryptoRedirects: readonly Redirect[] = [
  { method: 'GET', from: '/crypt/enc', to: '/crypto/enc' },
  { method: 'GET', from: '/crypt/decr', to: '/crypto/dec' },
];
