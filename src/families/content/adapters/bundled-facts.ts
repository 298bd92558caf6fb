import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { contentEntry, type ContentEntry } from '../domain/content.js';

/** The data file beside this module, in src/ and in dist/ alike (tsconfig.build.json copies src's JSON files). */
export const BUNDLED_FACTS_FILE = fileURLToPath(new URL('./bundled-facts.json', import.meta.url));

interface BundledFactsData {
  readonly source: string;
  readonly facts: Readonly<Record<string, readonly string[]>>;
}

/**
 * The cat and dog facts the project wrote itself, as entries: what answers /facts/cat and
 * /facts/dog on a fresh install without the network. A fact that breaks the rules of every
 * entry is a bug in the file, so it stops the load. Some 15 KB, read at once (the memory store
 * is built synchronously with the others).
 */
export function readBundledFacts(createdAt: number, file = BUNDLED_FACTS_FILE): ContentEntry[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as BundledFactsData;
  return Object.entries(data.facts).flatMap(([category, texts]) =>
    texts.map((text) => {
      const entry = contentEntry({ kind: 'fact', category, text, source: data.source }, createdAt, data.source);
      if (E.isLeft(entry))
        throw new Error(
          `${file}: the ${category} fact ${JSON.stringify(text)} is refused: ${JSON.stringify(entry.left)}`,
        );
      return entry.right;
    }),
  );
}
