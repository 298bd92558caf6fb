import type { PartOfSpeech } from './sense.js';

/**
 * What a word may be: letters of any script, with spaces, hyphens, apostrophes, periods and
 * digits among them, at least one letter, at most 64 characters.
 */
export const WORD_PATTERN = /^(?=[^\p{L}]*\p{L})[\p{L}\p{M}\p{Nd} .'\u2019-]{1,64}$/u;
export const WORD_RULE =
  'a word of at most 64 characters: letters, with spaces, hyphens, apostrophes, periods or digits among them';

/**
 * The form lemmas are looked up by: lower-case, single spaces, straight apostrophes (for ’, U+2019:
 * written as an escape in a pattern, as the program's bundle must stay ASCII).
 */
export function normaliseWord(word: string): string {
  return word
    .normalize('NFC')
    .trim()
    .replace(/ +/g, ' ')
    .replace(/\u2019/g, "'")
    .toLowerCase();
}

/**
 * WordNet's detachment rules for regular inflections (its morphy(7) page): each ending and
 * what replaces it. Adverbs have none.
 */
const DETACHMENTS: { readonly [P in PartOfSpeech]: readonly (readonly [string, string])[] } = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adjective: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adverb: [],
};

/** Forms a regular inflection may come from ("cats" → "cat", "walking" → "walke", "walk"), in rule order, once each. */
export function detach(form: string, partOfSpeech: PartOfSpeech): string[] {
  const bases: string[] = [];
  for (const [ending, replacement] of DETACHMENTS[partOfSpeech]) {
    if (form.length > ending.length && form.endsWith(ending))
      addOnce(bases, form.slice(0, -ending.length) + replacement);
  }
  return bases;
}

/**
 * Adds `item` to `list` unless it is there: for the few forms a word has, a list searched is
 * cheaper than a Set, which each lookup of a random lemma would otherwise make several of.
 */
export function addOnce<A>(list: A[], item: A): void {
  if (!list.includes(item)) list.push(item);
}

/**
 * Other spellings to try when a word is not found as written, as WordNet's own search does:
 * spaces as hyphens ("good looking" → "good-looking"), hyphens as spaces ("ice-cream"), both
 * left out ("well being" → "wellbeing"), periods left out ("a.m." → "am"). Each once, in that
 * order, never the word itself.
 */
export function spellingVariants(word: string): string[] {
  const variants = new Set([
    word.replaceAll(' ', '-'),
    word.replaceAll('-', ' '),
    word.replace(/[ -]/g, ''),
    word.replaceAll('.', ''),
  ]);
  variants.delete(word);
  variants.delete('');
  return [...variants];
}

/**
 * The word with its accents left out ("café" → "cafe", "naïve" → "naive"): WordNet spells most
 * loanwords without them, so this is tried when the word as written is not found.
 */
export function withoutAccents(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
}

const WORD_CHARACTERS = /[\p{L}\p{M}\p{Nd}']+/gu;

/**
 * The words of a text as lemmas are compared with them: lower-case, straight apostrophes, split
 * at anything but letters, digits and apostrophes (so "good-looking" is two words, as is the
 * lemma), a possessive's "'s" and quotes' apostrophes left out.
 */
export function wordsOf(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .replace(/\u2019/g, "'")
      .match(WORD_CHARACTERS) ?? [];
  // Cleaned in place, and only the words with an apostrophe: no list more per example read.
  let kept = 0;
  for (const word of words) {
    const bare = word.includes("'") ? word.replace(/'s$/, '').replace(/^'+|'+$/g, '') : word;
    if (bare !== '') words[kept++] = bare;
  }
  words.length = kept;
  return words;
}
