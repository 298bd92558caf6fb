import type * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../../../domain/errors.js';
import type { SenseFilter, WordQuery } from '../domain/dictionary-queries.js';
import { LruCache } from '../../../platform/caching/lru-cache.js';

/**
 * The answers of the most recently asked words, whole: the dictionary is read-only data, so an
 * answer once made holds until the process ends. People ask the same few thousand words again and
 * again, and a common word's answer is its longest to make ("good": 27 senses, ranked, grouped and
 * cut). bench:utilities' sixteen common words, two runs back to back: def from 0.51 to 0.79 of
 * crypto's throughput (server CPU per request 244 to 127 µs), syn from 0.47 to 0.77 (278 to 164
 * µs). Misses are kept too: their suggestions cost a scan of the lemmas of about the word's length.
 *
 * An answer is kept from the second time its question is asked while the last `capacity` questions
 * asked once are remembered, not from the first: most words are asked once, and an answer kept
 * lived long enough for the collector to copy it twice and sweep it from the old generation later,
 * while words asked once pushed out the answers of words asked often.
 */
export class RememberedAnswers<Answer> implements WordQuery<Answer> {
  private readonly answers: LruCache<string, E.Either<DomainError, Answer>>;
  /** The questions lately asked once, whose answers are not kept (yet). */
  private readonly askedOnce: LruCache<string, true>;

  constructor(
    private readonly query: WordQuery<Answer>,
    capacity: number,
  ) {
    this.answers = new LruCache(capacity);
    this.askedOnce = new LruCache(capacity);
  }

  async execute(word: string, filter: SenseFilter = {}): Promise<E.Either<DomainError, Answer>> {
    const key = `${word}\n${filter.partOfSpeech ?? ''}\n${filter.limit ?? ''}`;
    const kept = this.answers.get(key);
    if (kept !== undefined) return kept;
    const answer = await this.query.execute(word, filter);
    if (this.askedOnce.get(key) === undefined) {
      this.askedOnce.set(key, true);
    } else {
      this.askedOnce.delete(key);
      this.answers.set(key, answer);
    }
    return answer;
  }
}
