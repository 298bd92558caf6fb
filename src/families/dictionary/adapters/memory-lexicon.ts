import type { Lexicon } from '../domain/ports.js';
import type { PartOfSpeech, Sense } from '../domain/sense.js';

/** A sense as seeded: what the lexicon tells of it, with the opposites it points to. */
export interface SeededSense extends Omit<Sense, 'partOfSpeech'> {
  readonly antonyms?: readonly string[];
  readonly indirectAntonyms?: readonly string[];
}

export interface SeededLemma {
  /** Lower-case, single spaces: "ice cream". */
  readonly lemma: string;
  readonly partOfSpeech: PartOfSpeech;
  /** Most frequent first. */
  readonly senses: readonly SeededSense[];
}

export interface SeededIrregularForm {
  readonly form: string;
  readonly partOfSpeech: PartOfSpeech;
  readonly baseForms: readonly string[];
}

/** A lexicon held in memory: for tests of the domain and for developers without WordNet's files. */
export class MemoryLexicon implements Lexicon {
  private readonly lemmas: ReadonlyMap<string, readonly SeededSense[]>;
  private readonly irregular: ReadonlyMap<string, readonly string[]>;

  constructor(lemmas: readonly SeededLemma[] = [], irregularForms: readonly SeededIrregularForm[] = []) {
    this.lemmas = new Map(lemmas.map(({ lemma, partOfSpeech, senses }) => [keyOf(lemma, partOfSpeech), senses]));
    this.irregular = new Map(
      irregularForms.map(({ form, partOfSpeech, baseForms }) => [keyOf(form, partOfSpeech), baseForms]),
    );
  }

  async knows(lemma: string, partOfSpeech: PartOfSpeech): Promise<boolean> {
    return this.lemmas.has(keyOf(lemma, partOfSpeech));
  }

  async senses(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly Sense[]> {
    return this.seeded(lemma, partOfSpeech).map(({ definition, examples, words }) => ({
      partOfSpeech,
      definition,
      examples,
      words,
    }));
  }

  async antonyms(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]> {
    return this.seeded(lemma, partOfSpeech).flatMap((sense) => sense.antonyms ?? []);
  }

  async indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]> {
    return this.seeded(lemma, partOfSpeech).flatMap((sense) => sense.indirectAntonyms ?? []);
  }

  async irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]> {
    return this.irregular.get(keyOf(form, partOfSpeech)) ?? [];
  }

  private seeded(lemma: string, partOfSpeech: PartOfSpeech): readonly SeededSense[] {
    return this.lemmas.get(keyOf(lemma, partOfSpeech)) ?? [];
  }
}

const keyOf = (lemma: string, partOfSpeech: PartOfSpeech): string => `${partOfSpeech} ${lemma}`;
