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
  /**
   * How many times the lemma was found meaning this sense in the texts WordNet's senses were
   * counted in (its semantic concordance): what orders senses across parts of speech. 0 for
   * most senses, which those texts never used.
   */
  readonly tagCount: number;
}
