import { describe, expect, it } from 'vitest';
// The Markdown step of message rendering (pure, runs in Node); the sanitizer after it runs in
// the browser and is covered by the Chromium e2e (markdown-safety.e2e.test.ts).
import { isSafeUrl, renderMarkdown } from './markdown';

describe('message Markdown', () => {
  it('renders what agents write: headings, emphasis, lists, inline code, line breaks', () => {
    const html = renderMarkdown('# Plan\n\n- **one**\n- `two`\n\nfirst line\nsecond line');
    expect(html).toContain('<h1>Plan</h1>');
    expect(html).toContain('<li><strong>one</strong></li>');
    expect(html).toContain('<li><code>two</code></li>');
    expect(html).toContain('first line<br>\nsecond line');
  });

  it('highlights fenced code in a registered language and escapes the rest', () => {
    const ts = renderMarkdown('```ts\nconst a: number = 1;\n```');
    expect(ts).toContain('<pre><code class="language-ts">');
    expect(ts).toContain('<span class="hljs-keyword">const</span>');
    const unknown = renderMarkdown('```cobol\n<b>x</b>\n```');
    expect(unknown).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(unknown).not.toContain('hljs-');
  });

  it('keeps raw HTML as text', () => {
    const html = renderMarkdown('hi <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<div onclick="x()">block</div>');
    expect(html).not.toMatch(/<img|<script|<div/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;div onclick=&quot;x()&quot;&gt;block&lt;/div&gt;');
  });

  it('opens links in a new tab without opener or referrer, and neutralizes javascript: and data: URLs', () => {
    expect(renderMarkdown('[docs](https://example.com/a?b=1)')).toContain('<a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(renderMarkdown('see https://example.com')).toContain('rel="noopener noreferrer"');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'file:///etc/passwd']) {
      const html = renderMarkdown(`[click](${bad})`);
      expect(html, bad).not.toContain('<a');
      expect(html, bad).toContain('[click]');
    }
    expect(isSafeUrl(' mailto:a@b.c')).toBe(true);
    expect(isSafeUrl('/api/v1/x')).toBe(false);
  });

  it('never loads a Markdown image: it becomes a link, and unsafe image URLs stay text', () => {
    const html = renderMarkdown('![chart](https://tracker.example/pixel.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('<a class="md-image-link" href="https://tracker.example/pixel.png" target="_blank" rel="noopener noreferrer">image: chart</a>');
    expect(renderMarkdown('![x](data:image/png;base64,AAAA)')).not.toMatch(/<img|<a/);
    expect(renderMarkdown('![x" onerror="alert(1)](https://a.example/p.png)')).not.toMatch(/onerror="/);
  });

  it('wraps tables so they scroll inside the bubble', () => {
    expect(renderMarkdown('| a | b |\n|---|--:|\n| 1 | 2 |')).toMatch(/^<div class="md-table"><table>[\s\S]*<td style="text-align:right">2<\/td>/);
  });
});
