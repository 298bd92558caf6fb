import * as E from 'fp-ts/lib/Either.js';
import type { CallContext } from '../../../domain/call-context.js';
import type { DomainError } from '../../../domain/errors.js';
import type { Clock, Randomness } from '../../../domain/ports.js';
import { contentEntry, type ContentEntry, type ContentKind } from './content.js';
import type { ContentSource, ContentStore } from './ports.js';

/**
 * A uniform choice from 0 to `count` - 1 out of 48 random bits: the bias of the modulo is below
 * one in a billion for any number of entries a store will hold.
 */
export function randomIndex(randomness: Randomness, count: number): number {
  return randomness.bytes(6).readUIntBE(0, 6) % count;
}

const importHint = (kind: ContentKind, category: string): string =>
  `import some with: npx utility-api content import FILE --kind ${kind} --category ${category}`;

const nothingStored = (kind: ContentKind, category: string | undefined): DomainError => ({
  _tag: 'InformationNotFound',
  details:
    category === undefined
      ? `No ${kind}s are stored; ${importHint(kind, 'NAME')}`
      : `No ${kind}s of ${category} are stored; ${importHint(kind, category)}`,
});

/** A random entry of what the store holds: of one category, or of a category chosen at random among those with content. */
export class RandomContent {
  constructor(
    private readonly store: ContentStore,
    private readonly randomness: Randomness,
  ) {}

  /** A random entry of `category`, or undefined when it holds none. */
  async pick(kind: ContentKind, category: string): Promise<ContentEntry | undefined> {
    const count = await this.store.count(kind, category);
    return count === 0 ? undefined : this.store.nth(kind, category, randomIndex(this.randomness, count));
  }

  async ofCategory(kind: ContentKind, category: string): Promise<E.Either<DomainError, ContentEntry>> {
    const entry = await this.pick(kind, category);
    return entry ? E.right(entry) : E.left(nothingStored(kind, category));
  }

  /** Each category is as likely as another, however many entries it holds: a thousand imported quotes do not drown the rest. */
  async acrossCategories(kind: ContentKind): Promise<E.Either<DomainError, ContentEntry>> {
    const categories = await this.store.categories(kind);
    if (categories.length === 0) return E.left(nothingStored(kind, undefined));
    const { category, count } = categories[randomIndex(this.randomness, categories.length)]!;
    const entry = await this.store.nth(kind, category, randomIndex(this.randomness, count));
    // Deleted between the two reads: say so as for an empty store rather than answer something else.
    return entry ? E.right(entry) : E.left(nothingStored(kind, category));
  }
}

/** Where an answer of a live category came from. */
export type Provenance = 'fresh' | 'stale' | 'stored';

export interface Served {
  readonly entry: ContentEntry;
  /** `fresh` from the upstream now; `stale` from the store because the upstream failed; `stored` when it is turned off. */
  readonly provenance: Provenance;
}

/** A category fed by an upstream: what its entries are and where they come from. */
export interface Feed {
  readonly kind: ContentKind;
  readonly category: string;
  readonly author: string | null;
  /** The `source` of every entry received, the upstream's host. */
  readonly source: string;
  /** Who it is, for error details: "Chuck Norris facts", "Kanye West quotes". */
  readonly title: string;
}

/**
 * An entry from the feed's upstream, kept in the store; when the upstream fails (or is off), a
 * random one of those kept. Nothing kept and the upstream failing is the upstream's failure.
 */
export class LiveContent {
  constructor(
    private readonly feed: Feed,
    private readonly upstream: ContentSource,
    private readonly store: ContentStore,
    private readonly random: RandomContent,
    private readonly clock: Clock,
  ) {}

  async execute(context: CallContext = {}): Promise<E.Either<DomainError, Served>> {
    const { kind, category, author, source, title } = this.feed;
    const result = await this.upstream.next(context);
    if (result.kind === 'received') {
      const entry = contentEntry({ kind, category, text: result.text, author, source }, this.clock.now(), source);
      // The adapter checks the text by the same rules: a refusal here is a bug, answered as an outage.
      if (E.isLeft(entry))
        return E.left({
          _tag: 'UpstreamUnavailable',
          details: `${title}: the upstream answered a text we do not accept`,
        });
      await this.store.add([entry.right]);
      return E.right({ entry: entry.right, provenance: 'fresh' });
    }
    const kept = await this.random.pick(kind, category);
    if (kept) return E.right({ entry: kept, provenance: result.kind === 'off' ? 'stored' : 'stale' });
    switch (result.kind) {
      case 'off':
        return E.left({
          _tag: 'InformationNotFound',
          details: `${title} are turned off here and none are stored; ${importHint(kind, category)}`,
        });
      case 'unavailable':
        return E.left(
          result.reason === 'timeout'
            ? { _tag: 'UpstreamTimeout', details: `${title}: the upstream did not answer in time and none are stored` }
            : {
                _tag: 'UpstreamUnavailable',
                details: `${title}: the upstream could not be reached and none are stored`,
              },
        );
    }
  }
}
