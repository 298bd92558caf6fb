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

/**
 * The anchor GitHub gives a heading: its text without Markdown (links keep their text, code its
 * content), lower-cased, every character but letters, digits, marks, `_`, `-` and spaces dropped,
 * and each space made a `-`.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings, as GitHub makes them: a repeated one gets `-1`, `-2`, … */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text);
    if (!heading) continue;
    const slug = headingSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A link of a page: where it is, as written, and where it points. */
export interface Link {
  readonly line: number;
  readonly written: string;
  readonly target: string;
}

/**
 * The links of a page outside code: inline links and images (`[text](path)`, `[text](path#anchor)`,
 * `[text](#anchor)`) and reference definitions (`[name]: path`).
 */
export function linksOf(markdown: string): Link[] {
  return proseLines(markdown).flatMap(({ line, text }) => {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length));
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(prose);
    if (definition) return [{ line, written: definition[0].trim(), target: definition[1]! }];
    return [...prose.matchAll(/!?\[(?:[^\]]|\\\])*\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
      line,
      written: text.slice(match.index, match.index + match[0].length),
      target: match[1]!,
    }));
  });
}

/**
 * What is wrong with the relative links of a page (`docs/mail.md line 40: [text](path): …`): a
 * file that does not exist, or an anchor that names no heading of its Markdown file. Links with a
 * scheme (`https:`, `mailto:`) are not checked.
 */
export function brokenLinks(page: string, markdown: string): string[] {
  const problems: string[] = [];
  for (const { line, written, target } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const within = path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(page), path);
    const file = path === '' ? page : posix.normalize(decodeURIComponent(within));
    const at = `${page} line ${line}: ${written}`;
    if (path === '' && anchor === undefined) problems.push(`${at}: an empty link`);
    else if (file.startsWith('../')) problems.push(`${at}: ${file} is outside the project`);
    else if (path !== '' && !existsSync(join(ROOT, file))) problems.push(`${at}: there is no ${file}`);
    else if (anchor !== undefined) {
      if (!file.endsWith('.md')) problems.push(`${at}: an anchor into ${file}, which is no Markdown page`);
      else if (!headingAnchors(file === page ? markdown : readPage(file)).has(decodeURIComponent(anchor)))
        problems.push(`${at}: ${file} has no heading #${anchor}`);
    }
  }
  return problems;
}
