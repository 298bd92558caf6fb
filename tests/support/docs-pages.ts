import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ROOT } from './program.js';

/**
 * The documentation: README.md, the first page, and the pages under docs/. Paths are relative to
 * the project's root, with `/` between folders, as links and error messages write them.
 */

/** The README's section that maps docs/: its links give the order in which the pages are read. */
export const MAP_HEADING = '## Documentation';

/** A page's text. */
export function readPage(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Every Markdown file under docs/, sorted. */
export function docsPages(folder = 'docs'): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .flatMap((entry) => {
      const path = posix.join(folder, entry.name);
      if (entry.isDirectory()) return docsPages(path);
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

/**
 * The pages of docs/ in the order the README's map lists them: each link of its section
 * `## Documentation` that names a page under docs/, in order, once each (a page linked twice
 * counts where it is first linked).
 */
export function mappedPages(readme = readPage('README.md')): string[] {
  const start = readme.indexOf(`\n${MAP_HEADING}\n`);
  if (start < 0) return [];
  const rest = readme.slice(start + MAP_HEADING.length + 2);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const pages: string[] = [];
  for (const [, target] of section.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)) {
    const page = posix.normalize(target!);
    if (page.startsWith('docs/') && page.endsWith('.md') && !pages.includes(page)) pages.push(page);
  }
  return pages;
}

/** The order the examples' story reads: the README, then the pages of its map. */
export function readingOrder(): string[] {
  return ['README.md', ...mappedPages()];
}

/** One line of a page outside its fenced code blocks, with its line number (1-based). */
export interface ProseLine {
  readonly line: number;
  readonly text: string;
}

/** The lines of a page that are not inside a fenced code block (nor its fences). */
export function proseLines(markdown: string): ProseLine[] {
  const lines: ProseLine[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    if (fence === null) {
      const opening = /^ {0,3}(`{3,}|~{3,})/.exec(text);
      if (opening) fence = opening[1]!;
      else lines.push({ line: index + 1, text });
      return;
    }
    const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
    if (closing && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length) fence = null;
  });
  return lines;
}
