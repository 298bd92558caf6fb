import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { EXCLUDABLE, EXCLUDABLE_RULE, LOOKALIKE_CHARACTERS, LOOKALIKE_KEYWORD } from './domain/character-classes.js';
import {
  PASSPHRASE_WORDS,
  PASSWORD_LENGTH,
  type GeneratedPassword,
  type GeneratePassword,
} from './domain/generate-password.js';
import { PasswordPermission } from './domain/permissions.js';
import { matching, numberWritten, trueOrFalse } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, type JsonBody, type Route } from '../../platform/http/route-table.js';

export interface PasswordRouteDependencies {
  readonly generatePassword: GeneratePassword;
}

const generated = t.strict({ password: t.string, entropyBits: t.number });

/** A password is for its caller alone: no cache on the way may keep it. */
const NOT_STORED = { 'Cache-Control': 'no-store' };

const answered = (password: GeneratedPassword): JsonBody<GeneratedPassword> => ({
  contentType: 'application/json',
  body: password,
  headers: NOT_STORED,
});

const wholeNumber = (min: number, max: number) =>
  numberWritten(/^[0-9]{1,3}$/, min, max, `a whole number from ${min} to ${max}`, 'integer');

const classFlag = (what: string) =>
  optional(trueOrFalse, `${what}: true (the default) to have at least one, false to have none`);

export function passwordRoutes(deps: PasswordRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/password/gen',
      permission: PasswordPermission.PasswordGenerate,
      summary: 'A random password of chosen characters, or a passphrase of random words',
      query: {
        length: optional(
          wholeNumber(PASSWORD_LENGTH.min, PASSWORD_LENGTH.max),
          `characters in the password; default ${PASSWORD_LENGTH.byDefault}`,
        ),
        lower: classFlag('lower-case letters a–z'),
        upper: classFlag('capital letters A–Z'),
        digits: classFlag('digits 0–9'),
        symbols: classFlag('the 32 ASCII punctuation characters'),
        exclude: optional(
          matching(EXCLUDABLE, EXCLUDABLE_RULE),
          `characters never to use: \`${LOOKALIKE_KEYWORD}\` for ${LOOKALIKE_CHARACTERS.split('').join(' ')}, or the characters themselves, percent-encoded`,
        ),
        words: optional(
          wholeNumber(PASSPHRASE_WORDS.min, PASSPHRASE_WORDS.max),
          'instead of characters, a passphrase of this many words from the EFF long word list, joined by hyphens; takes none of the other parameters',
        ),
      },
      response: generated,
      responseHeaders: {
        'cache-control': required(matching(/^no-store$/, 'no-store'), 'no cache may keep the password'),
      },
      handle: async ({ query }) => E.map(answered)(await deps.generatePassword.execute(query)),
    }),
  ];
}
