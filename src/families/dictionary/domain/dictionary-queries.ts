import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import type { Lexicon } from './ports.js';
import { PARTS_OF_SPEECH, type PartOfSpeech } from './sense.js';
import { detach, normaliseWord, spellingVariants, withoutAccents, WORD_PATTERN, WORD_RULE } from './word-forms.js';

export interface Definition {
  readonly lemma: string;
  readonly partOfSpeech: PartOfSpeech;
  readonly definition: string;
  readonly examples: readonly string[];
}

/** `word` is the word as asked (normalised); `lemmas` the base forms its answer comes from. */
export interface Definitions {
  readonly word: string;
  readonly lemmas: readonly string[];
  readonly definitions: readonly Definition[];
}
export interface Synonyms {
  readonly word: string;
  readonly lemmas: readonly string[];
  readonly synonyms: readonly string[];
}
export interface Antonyms {
  readonly word: string;
  readonly lemmas: readonly string[];
  readonly antonyms: readonly string[];
}

interface Lemma {
  readonly lemma: string;
  readonly partOfSpeech: PartOfSpeech;
}

interface Entry {
  readonly word: string;
  readonly lemmas: readonly string[];
  /** The lemmas per part of speech, in WordNet's order of the parts. */
  readonly found: readonly Lemma[];
}

/**
 * The lemmas a word stands for, WordNet's way (morphy): per part of speech, the word itself and
 * either the base forms its exception list gives or, when it has none there, what the
 * detachment rules leave, and for words of several words each word lemmatised on its own
 * ("ran away" → "run away"); those the lexicon knows are kept. A word found under none of them
 * is tried in its other spellings ("good looking" → "good-looking"), then without its accents
 * ("café" → "cafe").
 */
async function lookUp(lexicon: Lexicon, asked: string): Promise<E.Either<DomainError, Entry>> {
  if (!WORD_PATTERN.test(asked)) {
    return E.left(invalidInput('word', `word must be ${WORD_RULE}`));
  }
  const word = normaliseWord(asked);
  for (const spelling of spellingsOf(word)) {
    const found = await lemmasOf(lexicon, spelling);
    if (found.length > 0) return E.right({ word, lemmas: [...new Set(found.map(({ lemma }) => lemma))], found });
  }
  return E.left({ _tag: 'InformationNotFound', details: `The dictionary has no entry for "${word}"` });
}

/**
 * The word as written, then its other spellings, then the same without accents: each made only
 * when those before are not found (most words are found as written).
 */
function* spellingsOf(word: string): Generator<string> {
  yield word;
  yield* spellingVariants(word);
  const unaccented = withoutAccents(word);
  if (unaccented === word) return;
  yield unaccented;
  yield* spellingVariants(unaccented);
}

async function lemmasOf(lexicon: Lexicon, form: string): Promise<Lemma[]> {
  const found: Lemma[] = [];
  for (const partOfSpeech of PARTS_OF_SPEECH) {
    const candidates = new Set([form, ...(await baseFormsOf(lexicon, form, partOfSpeech))]);
    if (form.includes(' ')) candidates.add(await wordByWordBaseForm(lexicon, form, partOfSpeech));
    for (const lemma of candidates) if (await lexicon.knows(lemma, partOfSpeech)) found.push({ lemma, partOfSpeech });
  }
  return found;
}

/** The exception list's base forms of a form, or when it has none, what the detachment rules leave. */
async function baseFormsOf(lexicon: Lexicon, form: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]> {
  const irregular = await lexicon.irregularBaseForms(form, partOfSpeech);
  return irregular.length > 0 ? irregular : detach(form, partOfSpeech);
}

/**
 * A phrase with each word replaced by its first base form the lexicon knows in this part of
 * speech, or kept as it is when it has none, as morphy does for collocations ("looked up" →
 * "look up", "ran away" → "run away").
 */
async function wordByWordBaseForm(lexicon: Lexicon, phrase: string, partOfSpeech: PartOfSpeech): Promise<string> {
  const words: string[] = [];
  for (const word of phrase.split(' ')) {
    let base = word;
    for (const candidate of await baseFormsOf(lexicon, word, partOfSpeech)) {
      if (await lexicon.knows(candidate, partOfSpeech)) {
        base = candidate;
        break;
      }
    }
    words.push(base);
  }
  return words.join(' ');
}

/** Words in first-seen order, once each whatever their case, leaving out the entry's own forms. */
function distinctOthers(lists: Iterable<Iterable<string>>, entry: Entry): string[] {
  const seen = new Set([entry.word, ...entry.lemmas]);
  const out: string[] = [];
  for (const words of lists) {
    for (const word of words) {
      const key = word.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(word);
    }
  }
  return out;
}

/** Per lemma of the entry, in its order, what `read` gives for it. */
async function perLemma<A>(
  entry: Entry,
  read: (lemma: string, partOfSpeech: PartOfSpeech) => Promise<readonly A[]>,
): Promise<{ lemma: string; items: readonly A[] }[]> {
  const lists = [];
  for (const { lemma, partOfSpeech } of entry.found) lists.push({ lemma, items: await read(lemma, partOfSpeech) });
  return lists;
}

export class DefineWord {
  constructor(private readonly lexicon: Lexicon) {}

  async execute(word: string): Promise<E.Either<DomainError, Definitions>> {
    const looked = await lookUp(this.lexicon, word);
    if (E.isLeft(looked)) return looked;
    const entry = looked.right;
    const senses = await perLemma(entry, (lemma, partOfSpeech) => this.lexicon.senses(lemma, partOfSpeech));
    const definitions: Definition[] = [];
    for (const { lemma, items } of senses) {
      for (const { partOfSpeech, definition, examples } of items)
        definitions.push({ lemma, partOfSpeech, definition, examples });
    }
    return E.right({ word: entry.word, lemmas: entry.lemmas, definitions });
  }
}

export class FindSynonyms {
  constructor(private readonly lexicon: Lexicon) {}

  /** The other words of every sense, most frequent sense first within each part of speech. */
  async execute(word: string): Promise<E.Either<DomainError, Synonyms>> {
    const looked = await lookUp(this.lexicon, word);
    if (E.isLeft(looked)) return looked;
    const entry = looked.right;
    const senses = await perLemma(entry, (lemma, partOfSpeech) => this.lexicon.senses(lemma, partOfSpeech));
    const wordLists: (readonly string[])[] = [];
    for (const { items } of senses) for (const sense of items) wordLists.push(sense.words);
    const synonyms = distinctOthers(wordLists, entry);
    return E.right({ word: entry.word, lemmas: entry.lemmas, synonyms });
  }
}

export class FindAntonyms {
  constructor(private readonly lexicon: Lexicon) {}

  /**
   * Direct antonyms of every sense; only when there are none, those a satellite adjective has
   * through its head ("torrid" → "cold"), which for a word such as "good" would add noise.
   */
  async execute(word: string): Promise<E.Either<DomainError, Antonyms>> {
    const looked = await lookUp(this.lexicon, word);
    if (E.isLeft(looked)) return looked;
    const entry = looked.right;
    const gather = async (read: Lexicon['antonyms']): Promise<string[]> =>
      distinctOthers(
        (await perLemma(entry, read)).map(({ items }) => items),
        entry,
      );
    const direct = await gather((lemma, partOfSpeech) => this.lexicon.antonyms(lemma, partOfSpeech));
    const antonyms =
      direct.length > 0
        ? direct
        : await gather((lemma, partOfSpeech) => this.lexicon.indirectAntonyms(lemma, partOfSpeech));
    return E.right({ word: entry.word, lemmas: entry.lemmas, antonyms });
  }
}
