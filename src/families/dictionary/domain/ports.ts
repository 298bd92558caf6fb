import { identifier } from '../../../domain/identifier.js';
import type { PartOfSpeech, Sense } from './sense.js';

/**
 * The dictionary as the domain needs it. Lemmas are lower-case, words separated by single
 * spaces ("ice cream").
 */
export interface Lexicon {
  /** Whether the lemma has senses in this part of speech. */
  knows(lemma: string, partOfSpeech: PartOfSpeech): Promise<boolean>;
  /** The senses of a lemma in one part of speech, most frequent first; empty when it has none. */
  senses(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly Sense[]>;
  /**
   * Opposites by antonym pointers, sense by sense: in each, the lemma's own first, then those of
   * the synset's other words.
   */
  antonyms(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]>;
  /** For senses that are adjective satellites ("torrid"), the antonyms of the head adjective they are similar to ("hot" → "cold"). */
  indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]>;
  /** Base forms an irregular form has in one part of speech ("geese" → "goose"); empty when it is not irregular. */
  irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]>;
}
export const Lexicon = identifier<Lexicon>('Lexicon');
