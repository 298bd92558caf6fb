import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import type { Randomness } from '../../../domain/ports.js';
import {
  CHARACTER_CLASSES,
  CHARACTERS_OF_CLASS,
  EXCLUDABLE,
  EXCLUDABLE_RULE,
  LOOKALIKE_CHARACTERS,
  LOOKALIKE_KEYWORD,
  type CharacterClass,
} from './character-classes.js';
import type { PassphraseWords } from './ports.js';
import { uniformIndexes } from './uniform-draw.js';

export const PASSWORD_LENGTH = { min: 8, max: 128, byDefault: 20 } as const;
export const PASSPHRASE_WORDS = { min: 4, max: 12 } as const;
/** Between a passphrase's words; the word list holds letters alone, so the words can be told apart again. */
export const WORD_SEPARATOR = '-';

/**
 * What to make: characters (`length`, the classes, `exclude`; every class is wanted unless set
 * to false) or, with `words`, a passphrase, which takes none of the others.
 */
export interface PasswordOptions {
  readonly length?: number;
  readonly lower?: boolean;
  readonly upper?: boolean;
  readonly digits?: boolean;
  readonly symbols?: boolean;
  /** `lookalike`, or the characters to leave out. */
  readonly exclude?: string;
  readonly words?: number;
}

export interface GeneratedPassword {
  readonly password: string;
  /**
   * log2 of how many passwords these options could have made, each as likely: what an attacker
   * who knows the options has to search. Rounded down to a tenth of a bit.
   */
  readonly entropyBits: number;
}

const CHARACTER_OPTIONS = ['length', ...CHARACTER_CLASSES, 'exclude'] as const;

/**
 * A rejected draw happens when a wanted class is missing. Even the least likely request (length
 * 8, `exclude` leaving three classes one character each beside the 32 symbols) keeps one draw in
 * about 160, so this many failures in a row does not happen with a real random source:
 * it can only mean a broken one.
 */
const MAX_DRAWS = 100_000;

interface Alphabet {
  readonly characters: string;
  /** The class of each character of `characters`, as a bit of a mask. */
  readonly classBits: readonly number[];
  readonly sizes: readonly number[];
  readonly allClasses: number;
}

/** A password or a passphrase, from the randomness source alone; nothing of it is kept. */
export class GeneratePassword {
  constructor(
    private readonly randomness: Randomness,
    private readonly words: PassphraseWords,
  ) {}

  async execute(options: PasswordOptions): Promise<E.Either<DomainError, GeneratedPassword>> {
    if (options.words !== undefined) {
      const alongside = CHARACTER_OPTIONS.filter((name) => options[name] !== undefined);
      if (alongside.length > 0)
        return E.left(
          invalidInput(
            ['words', ...alongside],
            `words makes a passphrase and cannot be given with ${alongside.join(', ')}, which make a password of characters`,
          ),
        );
      return this.passphrase(options.words);
    }
    return this.characters(options);
  }

  private async passphrase(count: number): Promise<E.Either<DomainError, GeneratedPassword>> {
    if (!Number.isInteger(count) || count < PASSPHRASE_WORDS.min || count > PASSPHRASE_WORDS.max)
      return E.left(
        invalidInput('words', `words must be a whole number from ${PASSPHRASE_WORDS.min} to ${PASSPHRASE_WORDS.max}`),
      );
    const list = await this.words.list();
    const chosen = uniformIndexes(this.randomness, list.length, count).map((index) => list[index]!);
    return E.right({
      password: chosen.join(WORD_SEPARATOR),
      entropyBits: tenthsDown(count * Math.log2(list.length)),
    });
  }

  private characters(options: PasswordOptions): E.Either<DomainError, GeneratedPassword> {
    const length = options.length ?? PASSWORD_LENGTH.byDefault;
    if (!Number.isInteger(length) || length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max)
      return E.left(
        invalidInput('length', `length must be a whole number from ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max}`),
      );
    const wanted = CHARACTER_CLASSES.filter((name) => options[name] !== false);
    if (wanted.length === 0)
      return E.left(
        invalidInput([...CHARACTER_CLASSES], 'at least one of lower, upper, digits and symbols must be true'),
      );
    const excluded = excludedCharacters(options.exclude);
    if (E.isLeft(excluded)) return excluded;
    const alphabet = alphabetOf(wanted, excluded.right);
    if (E.isLeft(alphabet)) return alphabet;
    return E.right({
      password: this.drawWithEveryClass(alphabet.right, length),
      entropyBits: tenthsDown(log2(passwordsWithEveryClass(alphabet.right, length))),
    });
  }

  /**
   * Every character drawn uniformly from the whole alphabet, and the whole password drawn again
   * while a wanted class is missing from it. Each password that has every class is then exactly
   * as likely as any other: no class is forced into a place, and no character is favoured.
   */
  private drawWithEveryClass({ characters, classBits, allClasses }: Alphabet, length: number): string {
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      const indexes = uniformIndexes(this.randomness, characters.length, length);
      let seen = 0;
      for (const index of indexes) seen |= classBits[index]!;
      if (seen === allClasses) return indexes.map((index) => characters[index]!).join('');
    }
    throw new Error(`No password had every wanted class in ${MAX_DRAWS} draws: the randomness source is broken`);
  }
}

function excludedCharacters(exclude: string | undefined): E.Either<DomainError, ReadonlySet<string>> {
  if (exclude === undefined) return E.right(new Set());
  if (exclude === LOOKALIKE_KEYWORD) return E.right(new Set(LOOKALIKE_CHARACTERS));
  if (!EXCLUDABLE.test(exclude)) return E.left(invalidInput('exclude', `exclude must be ${EXCLUDABLE_RULE}`));
  return E.right(new Set(exclude));
}

function alphabetOf(wanted: readonly CharacterClass[], excluded: ReadonlySet<string>): E.Either<DomainError, Alphabet> {
  let characters = '';
  const classBits: number[] = [];
  const sizes: number[] = [];
  for (const [position, name] of wanted.entries()) {
    const kept = [...CHARACTERS_OF_CLASS[name]].filter((character) => !excluded.has(character));
    if (kept.length === 0)
      return E.left(
        invalidInput('exclude', `exclude leaves no character of ${name}; set ${name}=false or exclude less`),
      );
    characters += kept.join('');
    for (let i = 0; i < kept.length; i++) classBits.push(1 << position);
    sizes.push(kept.length);
  }
  return E.right({ characters, classBits, sizes, allClasses: (1 << wanted.length) - 1 });
}

/**
 * How many passwords of `length` characters of the alphabet hold every class: all of them, less
 * those missing a class, plus those missing two (counted out twice), and so on.
 */
function passwordsWithEveryClass({ characters, sizes }: Alphabet, length: number): bigint {
  let count = 0n;
  for (let missing = 0; missing < 1 << sizes.length; missing++) {
    let left = characters.length;
    let classesMissing = 0;
    for (const [position, size] of sizes.entries()) {
      if (missing & (1 << position)) {
        left -= size;
        classesMissing += 1;
      }
    }
    const term = BigInt(left) ** BigInt(length);
    count += classesMissing % 2 === 0 ? term : -term;
  }
  return count;
}

const SAFE_BITS = 53;

/** log2 of a count too large for a double to hold exactly. */
function log2(value: bigint): number {
  const bits = value.toString(2).length;
  const dropped = Math.max(0, bits - SAFE_BITS);
  return dropped + Math.log2(Number(value >> BigInt(dropped)));
}

const tenthsDown = (bits: number): number => Math.floor(bits * 10) / 10;
