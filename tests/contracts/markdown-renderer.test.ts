import { expect } from 'chai';
import { MarkdownItRenderer } from '../../src/families/mail/adapters/markdown/markdown-it-renderer.js';
import { MemoryMarkdownRenderer } from '../../src/families/mail/adapters/markdown/memory-markdown-renderer.js';
import type { MarkdownRenderer } from '../../src/families/mail/domain/ports.js';

const adapters: { name: string; make: () => MarkdownRenderer }[] = [
  { name: 'markdown-it', make: () => new MarkdownItRenderer() },
  { name: 'memory', make: () => new MemoryMarkdownRenderer() },
];

for (const adapter of adapters) {
  describe(`contract: MarkdownRenderer (${adapter.name})`, () => {
    const renderer = adapter.make();

    it('escapes raw HTML: shown as text, never passed through', () => {
      const html = renderer.toHtml('Hello <script>alert("x")</script> <img src=x onerror=alert(1)> & <b>bold</b>');
      expect(html).to.not.match(/<(script|img|b)\b/i);
      expect(html).to.include('&lt;script&gt;').and.include('&lt;img src=x onerror=alert(1)&gt;').and.include('&amp;');
    });

    it('keeps the words, and runs of letters and digits exactly as written, in every paragraph', () => {
      const html = renderer.toHtml('First paragraph mailvar0mailvar\n\nSecond ☕ Zoë 42x');
      expect(html).to.include('mailvar0mailvar').and.include('Second ☕ Zoë 42x');
      expect(html.match(/<p>/g)).to.have.length(2);
    });

    it('renders nothing as nothing', () => {
      expect(renderer.toHtml('')).to.equal('');
    });
  });
}

describe('markdown-it renderer: CommonMark', () => {
  const renderer = new MarkdownItRenderer();

  it('renders headings, emphasis, lists, code and links', () => {
    expect(renderer.toHtml('# Hi\n\n*a* **b** `c`\n\n- one\n- two\n\n[docs](https://example.com/a?b=1&c=2)')).to.equal(
      '<h1>Hi</h1>\n<p><em>a</em> <strong>b</strong> <code>c</code></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p><a href="https://example.com/a?b=1&amp;c=2">docs</a></p>\n',
    );
  });

  it('makes no link of a javascript: or data: URL, and no link of a bare URL', () => {
    const html = renderer.toHtml(
      '[x](javascript:alert(1)) [y](data:text/html;base64,PHNjcmlwdD4=) https://example.com',
    );
    expect(html).to.not.include('<a');
  });
});
