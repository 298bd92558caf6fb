import MarkdownIt from 'markdown-it';
import type { MarkdownRenderer } from '../../domain/mail/ports.js';

/**
 * CommonMark by markdown-it, with `html: false`: raw HTML in the Markdown is shown as text
 * (escaped), never passed into the message. Its link check stays on (no `javascript:` links);
 * no typographic replacements or automatic links, so text reads as it was written.
 */
export class MarkdownItRenderer implements MarkdownRenderer {
  private readonly markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

  toHtml(markdown: string): string {
    return this.markdown.render(markdown);
  }
}
