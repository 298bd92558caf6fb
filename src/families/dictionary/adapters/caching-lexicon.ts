import type { Lexicon, LexiconLoader } from '../domain/ports.js';
import type { PartOfSpeech, Sense } from '../domain/sense.js';
import { loadOnce } from '../../../platform/caching/load-once.js';
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

  /** A loader of `loader`'s lexicon behind one CachingLexicon, made once that lexicon is loaded. */
  static over(loader: LexiconLoader, capacity: number): LexiconLoader {
    return { load: loadOnce(async () => new CachingLexicon(await loader.load(), capacity)) };
  }

  knows(lemma: string, partOfSpeech: PartOfSpeech): boolean {
    return this.lexicon.knows(lemma, partOfSpeech);
  }

  irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): readonly string[] {
    return this.lexicon.irregularBaseForms(form, partOfSpeech);
  }

  irregularFormsOf(base: string, partOfSpeech: PartOfSpeech): readonly string[] {
    return this.lexicon.irregularFormsOf(base, partOfSpeech);
  }

  senses(lemma: string, partOfSpeech: PartOfSpeech): readonly Sense[] {
    return this.remembered('senses', lemma, partOfSpeech, () => this.lexicon.senses(lemma, partOfSpeech));
  }

  nearLemmas(word: string, maxDistance: number, limit: number): readonly string[] {
    return this.lexicon.nearLemmas(word, maxDistance, limit);
  }

  antonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.remembered('antonyms', lemma, partOfSpeech, () => this.lexicon.antonyms(lemma, partOfSpeech));
  }

  similarWords(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.remembered('similar', lemma, partOfSpeech, () => this.lexicon.similarWords(lemma, partOfSpeech));
  }

  indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.remembered('indirect', lemma, partOfSpeech, () => this.lexicon.indirectAntonyms(lemma, partOfSpeech));
  }

  private remembered<A>(
    kind: string,
    lemma: string,
    partOfSpeech: PartOfSpeech,
    read: () => readonly A[],
  ): readonly A[] {
    const key = `${kind} ${partOfSpeech} ${lemma}`;
    const hit = this.recent.get(key);
    if (hit !== undefined) return hit as readonly A[];
    const value = read();
    this.recent.set(key, value);
    return value;
  }
}
