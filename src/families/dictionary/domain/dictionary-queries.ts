import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import { ipaOf, primaryStressSyllable } from './arpabet.js';
import type { Lexicon, LexiconLoader, PronouncingDictionary } from './ports.js';
import { PARTS_OF_SPEECH, type PartOfSpeech, type Sense } from './sense.js';
import { maxDistanceFor } from './spelling-distance.js';
import {
  addOnce,
  detach,
  normaliseWord,
  spellingVariants,
  withoutAccents,
  wordsOf,
  WORD_PATTERN,
  WORD_RULE,
} from './word-forms.js';

/** What narrows an answer: one part of speech, and at most so many senses. */
export interface SenseFilter {
  readonly partOfSpeech?: PartOfSpeech;
  readonly limit?: number;
}

/** A question asked of the dictionary about one word: its definitions, synonyms or antonyms. */
export interface WordQuery<Answer> {
  execute(word: string, filter?: SenseFilter): Promise<E.Either<DomainError, Answer>>;
}

/** The most words a miss suggests. */
export const MAX_SUGGESTIONS = 5;

export interface Definition {
  readonly lemma: string;
  readonly partOfSpeech: PartOfSpeech;
  readonly definition: string;
  readonly examples: readonly string[];
}

/** One way to say the word; `partsOfSpeech` are those it is said so in, empty when any. */
export interface Pronunciation {
  readonly ipa: string;
  readonly arpabet: string;
  readonly partsOfSpeech: readonly PartOfSpeech[];
}

/** `word` is the word as asked (normalised); `lemmas` the base forms its answer comes from. */
export interface Definitions {
  readonly word: string;
  readonly lemmas: readonly string[];
  readonly definitions: readonly Definition[];
  readonly pronunciations: readonly Pronunciation[];
}

/** A sense as the synonym and antonym answers name it. */
export interface SenseNamed {
  readonly lemma: string;
  readonly partOfSpeech: PartOfSpeech;
  readonly definition: string;
}
export interface SynonymGroup extends SenseNamed {
  readonly synonyms: readonly string[];
}
export interface AntonymGroup extends SenseNamed {
  readonly antonyms: readonly string[];
}

export interface Synonyms {
  readonly word: string;
  readonly lemmas: readonly string[];
  /** Every group's words once each, in the order of the groups. */
  readonly synonyms: readonly string[];
  readonly senses: readonly SynonymGroup[];
}
export interface Antonyms {
  readonly word: string;
  readonly lemmas: readonly string[];
  readonly antonyms: readonly string[];
  readonly senses: readonly AntonymGroup[];
}

interface Lemma {
  readonly lemma: string;
  readonly partOfSpeech: PartOfSpeech;
}

interface Entry {
  readonly word: string;
  readonly lemmas: readonly string[];
  /** The lemmas per part of speech, in WordNet's order of the parts; only those of the part asked for. */
  readonly found: readonly Lemma[];
  /** The parts of speech the word has, whichever was asked for. */
  readonly partsOfSpeech: ReadonlySet<PartOfSpeech>;
}

/** A sense of one of the entry's lemmas, with its place among that lemma's senses of its part of speech. */
interface RankedSense {
  readonly lemma: string;
  readonly sense: Sense;
  readonly index: number;
  /** Which of the entry's found lemmas it is a sense of (its place in `found`). */
  readonly foundAt: number;
}

/**
 * The lemmas a word stands for, WordNet's way (morphy): per part of speech, the word itself and
 * either the base forms its exception list gives or, when it has none there, what the
 * detachment rules leave, and for words of several words each word lemmatised on its own
 * ("ran away" → "run away"); those the lexicon knows are kept. A word found under none of them
 * is tried in its other spellings ("good looking" → "good-looking"), then without its accents
 * ("café" → "cafe"). A word not found at all is answered with the lemmas spelled closest to it.
 */
function lookUp(lexicon: Lexicon, asked: string, partOfSpeech: PartOfSpeech | undefined): E.Either<DomainError, Entry> {
  if (!WORD_PATTERN.test(asked)) {
    return E.left(invalidInput('word', `word must be ${WORD_RULE}`));
  }
  const word = normaliseWord(asked);
  for (const spelling of spellingsOf(word)) {
    const everyPart = lemmasOf(lexicon, spelling);
    if (everyPart.length === 0) continue;
    const found = everyPart.filter((lemma) => partOfSpeech === undefined || lemma.partOfSpeech === partOfSpeech);
    if (found.length === 0) {
      return E.left({ _tag: 'InformationNotFound', details: `The dictionary has no ${partOfSpeech} "${word}"` });
    }
    return E.right({
      word,
      lemmas: [...new Set(found.map(({ lemma }) => lemma))],
      found,
      partsOfSpeech: new Set(everyPart.map((lemma) => lemma.partOfSpeech)),
    });
  }
  // Compared without accents, as WordNet spells its words ("cafféé" is two edits from "cafe").
  const unaccented = withoutAccents(word);
  const suggestions = lexicon.nearLemmas(unaccented, maxDistanceFor(unaccented), MAX_SUGGESTIONS);
  return E.left({ _tag: 'InformationNotFound', details: `The dictionary has no entry for "${word}"`, suggestions });
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

function lemmasOf(lexicon: Lexicon, form: string): Lemma[] {
  const found: Lemma[] = [];
  for (const partOfSpeech of PARTS_OF_SPEECH) {
    const candidates = [form];
    for (const base of baseFormsOf(lexicon, form, partOfSpeech)) addOnce(candidates, base);
    if (form.includes(' ')) addOnce(candidates, wordByWordBaseForm(lexicon, form, partOfSpeech));
    for (const lemma of candidates) if (lexicon.knows(lemma, partOfSpeech)) found.push({ lemma, partOfSpeech });
  }
  return found;
}

/** The exception list's base forms of a form, or when it has none, what the detachment rules leave. */
function baseFormsOf(lexicon: Lexicon, form: string, partOfSpeech: PartOfSpeech): readonly string[] {
  const irregular = lexicon.irregularBaseForms(form, partOfSpeech);
  return irregular.length > 0 ? irregular : detach(form, partOfSpeech);
}

/**
 * A phrase with each word replaced by its first base form the lexicon knows in this part of
 * speech, or kept as it is when it has none, as morphy does for collocations ("looked up" →
 * "look up", "ran away" → "run away").
 */
function wordByWordBaseForm(lexicon: Lexicon, phrase: string, partOfSpeech: PartOfSpeech): string {
  const words: string[] = [];
  for (const word of phrase.split(' ')) {
    let base = word;
    for (const candidate of baseFormsOf(lexicon, word, partOfSpeech)) {
      if (lexicon.knows(candidate, partOfSpeech)) {
        base = candidate;
        break;
      }
    }
    words.push(base);
  }
  return words.join(' ');
}

/**
 * Every sense of the entry's lemmas, the most frequent first whatever its part of speech (by
 * the lexicon's tag counts: "run" the verb of moving fast before "run" the score in baseball);
 * senses never counted keep WordNet's order within their part of speech, and are interleaved
 * by it across parts, a lemma's second sense before any lemma's third.
 */
function rankedSenses(lexicon: Lexicon, entry: Entry): RankedSense[] {
  const ranked: RankedSense[] = [];
  for (const [foundAt, { lemma, partOfSpeech }] of entry.found.entries()) {
    lexicon.senses(lemma, partOfSpeech).forEach((sense, index) => ranked.push({ lemma, sense, index, foundAt }));
  }
  // Array sort is stable: equals keep the entry's order, which is WordNet's order of the parts.
  return ranked.sort((a, b) => b.sense.tagCount - a.sense.tagCount || a.index - b.index);
}

const limited = <A>(items: readonly A[], filter: SenseFilter): readonly A[] =>
  filter.limit === undefined ? items : items.slice(0, filter.limit);

/** Words once each whatever their case, in first-seen order, leaving out the entry's own forms. */
function distinctOthers(lists: Iterable<Iterable<string>>, entry: Entry): string[] {
  const seen = new Set(entry.lemmas).add(entry.word);
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

type PerSenseRead = (lemma: string, partOfSpeech: PartOfSpeech) => readonly (readonly string[])[];

/** What the lexicon lists per sense (antonyms, similar words) of each of the entry's lemmas, by ranked sense. */
function perSenseOf(entry: Entry, read: PerSenseRead): (sense: RankedSense) => readonly string[] {
  const lists = entry.found.map(({ lemma, partOfSpeech }) => read(lemma, partOfSpeech));
  return ({ foundAt, index }) => lists[foundAt]![index] ?? [];
}

/** A sense by its lemma, part of speech and definition: the first fields of a group. */
const named = ({ lemma, sense }: RankedSense): SenseNamed => ({
  lemma,
  partOfSpeech: sense.partOfSpeech,
  definition: sense.definition,
});

/**
 * Whether an example uses the lemma: its words, or each of a phrase's in turn, as written or
 * inflected (an irregular form of the exception list, or a regular ending the detachment rules
 * take off). WordNet shares one gloss among a synset's words, so the example of "car" may not
 * name "automobile". The irregular forms are asked once per word of the lemma.
 */
function lemmaUser(lexicon: Lexicon, lemma: string, partOfSpeech: PartOfSpeech): (example: string) => boolean {
  const lemmaWords = wordsOf(lemma);
  const irregular = lemmaWords.map((base) => lexicon.irregularFormsOf(base, partOfSpeech));
  const isFormOf = (word: string, k: number): boolean =>
    word === lemmaWords[k] || irregular[k]!.includes(word) || detach(word, partOfSpeech).includes(lemmaWords[k]!);
  const usedFrom = (words: readonly string[], start: number): boolean => {
    for (let k = 0; k < lemmaWords.length; k++) if (!isFormOf(words[start + k]!, k)) return false;
    return true;
  };
  return (example) => {
    const words = wordsOf(example);
    for (let start = 0; start + lemmaWords.length <= words.length; start++) if (usedFrom(words, start)) return true;
    return false;
  };
}

/**
 * The entry word's pronunciations, a phrase's made of its words' usual ones when each is known.
 * Where a word has one said with the stress on its first syllable and one with the stress later,
 * and it is both a noun and a verb, the first is taken for the noun and the later for the verb,
 * as English does with "record", "present", "object" (the dictionary does not say).
 */
async function pronunciationsOf(
  dictionary: PronouncingDictionary,
  entry: Entry,
  filter: SenseFilter,
): Promise<Pronunciation[]> {
  const words = entry.word.split(' ');
  let said: { arpabet: string; ipa: string }[];
  if (words.length === 1) {
    said = (await dictionary.pronunciationsOf(entry.word)).map((arpabet) => ({ arpabet, ipa: ipaOf(arpabet) }));
  } else {
    const usual: (string | undefined)[] = [];
    for (const word of words) usual.push((await dictionary.pronunciationsOf(word))[0]);
    const known = usual.filter((arpabet) => arpabet !== undefined);
    said = known.length < words.length ? [] : [{ arpabet: known.join(' '), ipa: known.map(ipaOf).join(' ') }];
  }
  const parts = entry.partsOfSpeech;
  const stressedFirst = (arpabet: string): boolean => primaryStressSyllable(arpabet) === 0;
  const shifts =
    parts.has('noun') &&
    parts.has('verb') &&
    said.some(({ arpabet }) => stressedFirst(arpabet)) &&
    said.some(({ arpabet }) => (primaryStressSyllable(arpabet) ?? 0) > 0);
  return said
    .map(({ arpabet, ipa }): Pronunciation => ({
      ipa,
      arpabet,
      partsOfSpeech: shifts ? [stressedFirst(arpabet) ? 'noun' : 'verb'] : [],
    }))
    .filter(
      ({ partsOfSpeech }) =>
        filter.partOfSpeech === undefined || partsOfSpeech.length === 0 || partsOfSpeech.includes(filter.partOfSpeech),
    );
}

export class DefineWord implements WordQuery<Definitions> {
  constructor(
    private readonly lexicon: LexiconLoader,
    private readonly pronouncing: PronouncingDictionary,
  ) {}

  /**
   * The senses most frequent first, each with those of its examples that use the word (some of
   * WordNet's use another word of the synset), and how the word is said.
   */
  async execute(word: string, filter: SenseFilter = {}): Promise<E.Either<DomainError, Definitions>> {
    const lexicon = await this.lexicon.load();
    const looked = lookUp(lexicon, word, filter.partOfSpeech);
    if (E.isLeft(looked)) return looked;
    const entry = looked.right;
    const definitions: Definition[] = [];
    const users = new Map<string, (example: string) => boolean>();
    const userOf = (lemma: string, partOfSpeech: PartOfSpeech) => {
      const key = `${partOfSpeech} ${lemma}`;
      let user = users.get(key);
      if (user === undefined) users.set(key, (user = lemmaUser(lexicon, lemma, partOfSpeech)));
      return user;
    };
    for (const { lemma, sense } of limited(rankedSenses(lexicon, entry), filter)) {
      const examples = sense.examples.length === 0 ? [] : sense.examples.filter(userOf(lemma, sense.partOfSpeech));
      definitions.push({ lemma, partOfSpeech: sense.partOfSpeech, definition: sense.definition, examples });
    }
    const pronunciations = await pronunciationsOf(this.pronouncing, entry, filter);
    return E.right({ word: entry.word, lemmas: entry.lemmas, definitions, pronunciations });
  }
}

export class FindSynonyms implements WordQuery<Synonyms> {
  constructor(private readonly lexicon: LexiconLoader) {}

  /**
   * Per sense with other words, most frequent first, those words, and for an adjective those of
   * the senses similar to it (WordNet's own synonym search does so: "fast" has no other word
   * in its first sense, and "quick" and "rapid" among those similar); and all of them in one list.
   */
  async execute(word: string, filter: SenseFilter = {}): Promise<E.Either<DomainError, Synonyms>> {
    const lexicon = await this.lexicon.load();
    const looked = lookUp(lexicon, word, filter.partOfSpeech);
    if (E.isLeft(looked)) return looked;
    const entry = looked.right;
    const similar = perSenseOf(entry, (lemma, partOfSpeech) => lexicon.similarWords(lemma, partOfSpeech));
    const senses = rankedSenses(lexicon, entry)
      .map((ranked) => ({
        ...named(ranked),
        synonyms: distinctOthers([ranked.sense.words, similar(ranked)], entry),
      }))
      .filter((group) => group.synonyms.length > 0);
    const groups = limited(senses, filter);
    const synonyms = distinctOthers(
      groups.map((group) => group.synonyms),
      entry,
    );
    return E.right({ word: entry.word, lemmas: entry.lemmas, synonyms, senses: groups });
  }
}

export class FindAntonyms implements WordQuery<Antonyms> {
  constructor(private readonly lexicon: LexiconLoader) {}

  /**
   * Per sense with opposites, most frequent first, its direct antonyms; only when no sense has
   * any, those a satellite adjective has through its head ("torrid" → "cold"), which for a word
   * such as "good" would add noise.
   */
  async execute(word: string, filter: SenseFilter = {}): Promise<E.Either<DomainError, Antonyms>> {
    const lexicon = await this.lexicon.load();
    const looked = lookUp(lexicon, word, filter.partOfSpeech);
    if (E.isLeft(looked)) return looked;
    const entry = looked.right;
    const ranked = rankedSenses(lexicon, entry);
    const groupsBy = (read: PerSenseRead): AntonymGroup[] => {
      const antonymsOf = perSenseOf(entry, read);
      return ranked
        .map((sense) => ({ ...named(sense), antonyms: distinctOthers([antonymsOf(sense)], entry) }))
        .filter((group) => group.antonyms.length > 0);
    };
    const direct = groupsBy((lemma, partOfSpeech) => lexicon.antonyms(lemma, partOfSpeech));
    const groups = limited(
      direct.length > 0 ? direct : groupsBy((lemma, partOfSpeech) => lexicon.indirectAntonyms(lemma, partOfSpeech)),
      filter,
    );
    const antonyms = distinctOthers(
      groups.map((group) => group.antonyms),
      entry,
    );
    return E.right({ word: entry.word, lemmas: entry.lemmas, antonyms, senses: groups });
  }
}
