import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { MarkdownRenderer } from '../../domain/ports.js';

/**
 * CommonMark by markdown-it, with `html: false`: raw HTML in the Markdown is shown as text
 * (escaped), never passed into the message. Its link check stays on (no `javascript:` links);
 * no typographic replacements or automatic links, so text reads as it was written.
 */
export class MarkdownItRenderer implements MarkdownRenderer {
  private markdown: InstanceType<typeof MarkdownIt> | undefined;

  toHtml(markdown: string): string {
    // Loaded at the first message, not at every start: most installations never send one.
    this.markdown ??= new (createRequire(import.meta.url)('markdown-it') as typeof MarkdownIt)({
      html: false,
      linkify: false,
      typographer: false,
    });
    return this.markdown.render(markdown);
  }
}
