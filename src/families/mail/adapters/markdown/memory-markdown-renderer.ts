import type { MarkdownRenderer } from '../../domain/ports.js';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * Markdown read as plain paragraphs, for tests that need no Markdown library: every character
 * escaped, each block between blank lines one `<p>`. Its output is HTML, never markup from the text.
 */
export class MemoryMarkdownRenderer implements MarkdownRenderer {
  toHtml(markdown: string): string {
    return markdown
      .split(/\n[ \t]*\n/)
      .map((block) => block.trim())
      .filter((block) => block !== '')
      .map((block) => `<p>${block.replace(/[&<>"]/g, (character) => ESCAPES[character]!)}</p>\n`)
      .join('');
  }
}
