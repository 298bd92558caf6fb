import type { Lexicon } from '../domain/ports.js';
import type { PartOfSpeech, Sense } from '../domain/sense.js';
import { LruCache } from '../../../platform/caching/lru-cache.js';

/**
 * Keeps the senses, antonyms and similar words of the most recently asked lemmas of any lexicon. The words asked
 * most are those with the most senses ("run" has 57), whose reading and parsing would otherwise
 * dominate a request; a few hundred lemmas cost about a megabyte.
 */
export class CachingLexicon implements Lexicon {
  private readonly recent: LruCache<string, readonly unknown[]>;

  constructor(
    private readonly lexicon: Lexicon,
    capacity: number,
  ) {
    this.recent = new LruCache(capacity);
  }

  knows(lemma: string, partOfSpeech: PartOfSpeech): Promise<boolean> {
    return this.lexicon.knows(lemma, partOfSpeech);
  }

  irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]> {
    return this.lexicon.irregularBaseForms(form, partOfSpeech);
  }

  irregularFormsOf(base: string, partOfSpeech: PartOfSpeech): Promise<readonly string[]> {
    return this.lexicon.irregularFormsOf(base, partOfSpeech);
  }

  senses(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly Sense[]> {
    return this.remembered('senses', lemma, partOfSpeech, () => this.lexicon.senses(lemma, partOfSpeech));
  }

  nearLemmas(word: string, maxDistance: number, limit: number): Promise<readonly string[]> {
    return this.lexicon.nearLemmas(word, maxDistance, limit);
  }

  antonyms(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly (readonly string[])[]> {
    return this.remembered('antonyms', lemma, partOfSpeech, () => this.lexicon.antonyms(lemma, partOfSpeech));
  }

  similarWords(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly (readonly string[])[]> {
    return this.remembered('similar', lemma, partOfSpeech, () => this.lexicon.similarWords(lemma, partOfSpeech));
  }

  indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): Promise<readonly (readonly string[])[]> {
    return this.remembered('indirect', lemma, partOfSpeech, () => this.lexicon.indirectAntonyms(lemma, partOfSpeech));
  }

  private async remembered<A>(
    kind: string,
    lemma: string,
    partOfSpeech: PartOfSpeech,
    read: () => Promise<readonly A[]>,
  ): Promise<readonly A[]> {
    const key = `${kind} ${partOfSpeech} ${lemma}`;
    const hit = this.recent.get(key);
    if (hit !== undefined) return hit as readonly A[];
    const value = await read();
    this.recent.set(key, value);
    return value;
  }
}
