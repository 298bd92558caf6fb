import { identifier } from '../../../domain/identifier.js';
import type { PartOfSpeech, Sense } from './sense.js';

/**
 * The dictionary as the domain reads it, once loaded: every read answers at once. Lemmas are
 * lower-case, words separated by single spaces ("ice cream").
 */
export interface Lexicon {
  /** Whether the lemma has senses in this part of speech. */
  knows(lemma: string, partOfSpeech: PartOfSpeech): boolean;
  /** The senses of a lemma in one part of speech, most frequent first; empty when it has none. */
  senses(lemma: string, partOfSpeech: PartOfSpeech): readonly Sense[];
  /**
   * Opposites by antonym pointers, one list per sense in the order of `senses`: in each, the
   * lemma's own first, then those of the synset's other words.
   */
  antonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[];
  /**
   * For senses that are adjective satellites ("torrid"), the antonyms of the head adjective they
   * are similar to ("hot" → "cold"); one list per sense in the order of `senses`, empty for the others.
   */
  indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[];
  /**
   * For adjective senses, the words of the senses WordNet calls similar (a head adjective's
   * satellites, "fast" → "quick", "rapid"; a satellite's head), the most used first; one list
   * per sense in the order of `senses`, empty for the others.
   */
  similarWords(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[];
  /** Base forms an irregular form has in one part of speech ("geese" → "goose"); empty when it is not irregular. */
  irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): readonly string[];
  /** The irregular forms of a base form in one part of speech, the other way ("go" → "went", "gone"); empty when none. */
  irregularFormsOf(base: string, partOfSpeech: PartOfSpeech): readonly string[];
  /**
   * Lemmas spelled within `maxDistance` edits of `word` (an edit: a letter added, left out,
   * replaced, or two neighbours swapped), closest first and among equals the most used first;
   * at most `limit`.
   */
  nearLemmas(word: string, maxDistance: number, limit: number): readonly string[];
}

/**
 * Where the domain gets its lexicon: the first call loads it, concurrent first calls share that
 * load, and a failed load is tried again by the next call; once loaded, every call answers the
 * same lexicon. A question awaits the load once and then reads at once: a definition asks the
 * lexicon about fifteen things (each form's base forms, whether each is a lemma, its senses), and
 * when each was a promise, their promises and suspended frames were half of what a random lemma's
 * definition allocated (40 kB in process, 22 kB since); bench:utilities' def of random lemmas went
 * from 0.357 of crypto's throughput to 0.41 (server CPU 101 to 84–95 µs a request), syn from 0.37
 * to 0.43–0.45 (alternated, two runs each).
 */
export interface LexiconLoader {
  load(): Promise<Lexicon>;
}
export const LexiconLoader = identifier<LexiconLoader>('LexiconLoader');

/** How words are said, as a pronouncing dictionary writes them. */
export interface PronouncingDictionary {
  /**
   * A word's pronunciations in ARPAbet (phonemes separated by spaces, vowels with their stress:
   * 1 primary, 2 secondary, 0 none), the usual one first; empty for a word it does not know.
   */
  pronunciationsOf(word: string): Promise<readonly string[]>;
}
export const PronouncingDictionary = identifier<PronouncingDictionary>('PronouncingDictionary');
