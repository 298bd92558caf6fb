/** The kinds of character a password is made of, each asked for by its own option. */
export const CHARACTER_CLASSES = ['lower', 'upper', 'digits', 'symbols'] as const;
export type CharacterClass = (typeof CHARACTER_CLASSES)[number];

/** Every printable ASCII character but the space, each in exactly one class: 26 + 26 + 10 + 32. */
export const CHARACTERS_OF_CLASS: { readonly [C in CharacterClass]: string } = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
};

/** What `exclude` names by this word rather than by its letters. */
export const LOOKALIKE_KEYWORD = 'lookalike';
/** Characters read for one another in many fonts: zero and the letter O, one, lower-case L, capital i and the bar. */
export const LOOKALIKE_CHARACTERS = '0Oo1lI|';

/** What `exclude` may list: printable ASCII but the space, the characters passwords are made of. */
export const EXCLUDABLE = /^[!-~]{1,94}$/;
export const EXCLUDABLE_RULE = `${LOOKALIKE_KEYWORD}, or 1 to 94 printable ASCII characters other than the space`;
