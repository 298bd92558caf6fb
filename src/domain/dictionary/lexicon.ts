/** WordNet's four parts of speech, in the order WordNet itself lists a word's senses. */
export const PARTS_OF_SPEECH = ['noun', 'verb', 'adjective', 'adverb'] as const;
export type PartOfSpeech = (typeof PARTS_OF_SPEECH)[number];

/** One meaning of a lemma: a WordNet synset seen from one of its words. */
export interface Sense {
  readonly partOfSpeech: PartOfSpeech;
  readonly definition: string;
  readonly examples: readonly string[];
  /** Every word of the synset, the lemma itself included, spelled as the lexicon spells them. */
  readonly words: readonly string[];
}

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
export const Lexicon = Symbol.for('Lexicon');
