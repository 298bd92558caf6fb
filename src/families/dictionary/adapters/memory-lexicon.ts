import type { Lexicon, LexiconLoader } from '../domain/ports.js';
import type { PartOfSpeech, Sense } from '../domain/sense.js';
import { distanceWithin } from '../domain/spelling-distance.js';

/** A sense as seeded: what the lexicon tells of it (never counted unless said), with the opposites it points to. */
export interface SeededSense extends Omit<Sense, 'partOfSpeech' | 'tagCount'> {
  readonly tagCount?: number;
  readonly antonyms?: readonly string[];
  readonly indirectAntonyms?: readonly string[];
  readonly similarWords?: readonly string[];
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

/**
 * A lexicon held in memory: for tests of the domain and for developers without WordNet's files.
 * It is loaded once made, so it is its own loader.
 */
export class MemoryLexicon implements Lexicon, LexiconLoader {
  private readonly lemmas: ReadonlyMap<string, readonly SeededSense[]>;
  private readonly irregular: ReadonlyMap<string, readonly string[]>;

  constructor(lemmas: readonly SeededLemma[] = [], irregularForms: readonly SeededIrregularForm[] = []) {
    this.lemmas = new Map(lemmas.map(({ lemma, partOfSpeech, senses }) => [keyOf(lemma, partOfSpeech), senses]));
    this.irregular = new Map(
      irregularForms.map(({ form, partOfSpeech, baseForms }) => [keyOf(form, partOfSpeech), baseForms]),
    );
  }

  knows(lemma: string, partOfSpeech: PartOfSpeech): boolean {
    return this.lemmas.has(keyOf(lemma, partOfSpeech));
  }

  senses(lemma: string, partOfSpeech: PartOfSpeech): readonly Sense[] {
    return this.seeded(lemma, partOfSpeech).map(({ definition, examples, words, tagCount }) => ({
      partOfSpeech,
      definition,
      examples,
      words,
      tagCount: tagCount ?? 0,
    }));
  }

  antonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.seeded(lemma, partOfSpeech).map((sense) => sense.antonyms ?? []);
  }

  similarWords(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.seeded(lemma, partOfSpeech).map((sense) => sense.similarWords ?? []);
  }

  indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.seeded(lemma, partOfSpeech).map((sense) => sense.indirectAntonyms ?? []);
  }

  nearLemmas(word: string, maxDistance: number, limit: number): readonly string[] {
    const encoder = new TextEncoder();
    const key = encoder.encode(word);
    const near = new Map<string, { distance: number; used: number }>();
    for (const [partAndLemma, senses] of this.lemmas) {
      const lemma = partAndLemma.slice(partAndLemma.indexOf(' ') + 1);
      const spelled = encoder.encode(lemma);
      const distance = distanceWithin(spelled, 0, spelled.length, key, maxDistance);
      if (distance > maxDistance) continue;
      const used = senses.reduce((sum, sense) => sum + (sense.tagCount ?? 0), near.get(lemma)?.used ?? 0);
      near.set(lemma, { distance, used });
    }
    return [...near.entries()]
      .sort(([a, x], [b, y]) => x.distance - y.distance || y.used - x.used || (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([lemma]) => lemma);
  }

  irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): readonly string[] {
    return this.irregular.get(keyOf(form, partOfSpeech)) ?? [];
  }

  irregularFormsOf(base: string, partOfSpeech: PartOfSpeech): readonly string[] {
    const forms: string[] = [];
    for (const [key, bases] of this.irregular)
      if (key.startsWith(`${partOfSpeech} `) && bases.includes(base)) forms.push(key.slice(partOfSpeech.length + 1));
    return forms;
  }

  load(): Promise<Lexicon> {
    return Promise.resolve(this);
  }

  private seeded(lemma: string, partOfSpeech: PartOfSpeech): readonly SeededSense[] {
    return this.lemmas.get(keyOf(lemma, partOfSpeech)) ?? [];
  }
}

const keyOf = (lemma: string, partOfSpeech: PartOfSpeech): string => `${partOfSpeech} ${lemma}`;
