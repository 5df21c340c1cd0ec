import markdownIt, { type MarkdownIt } from 'markdown-it';
import { highlightCode } from './highlight';

// Message text → HTML with markdown-it: raw HTML off (it comes out as text), links only to
// http(s) and mailto and always into a new tab without an opener or referrer, images never
// fetched (an agent's `![](…)` becomes a link: no tracking pixels, no data: URLs), fenced code
// highlighted. The browser still runs the result through the sanitizer (sanitize.ts) before it
// reaches the page; this step is pure and runs in Node tests too.

/** Link targets a message may point at; everything else (javascript:, data:, file:, vbscript:, relative) stays text. */
const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;

export function isSafeUrl(url: string): boolean {
  return SAFE_URL.test(url.trim());
}

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false, highlight: highlightCode });
  md.validateLink = isSafeUrl;
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx]!;
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
    return self.renderToken(tokens, idx, options);
  };
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = md.utils.escapeHtml(token.content || src);
    return `<a class="md-image-link" href="${md.utils.escapeHtml(src)}" target="_blank" rel="noopener noreferrer">image: ${alt}</a>`;
  };
  // Tables scroll sideways inside a narrow bubble instead of widening it.
  md.renderer.rules.table_open = () => '<div class="md-table"><table>';
  md.renderer.rules.table_close = () => '</table></div>';
  return md;
}

let renderer: MarkdownIt | undefined;

/** The HTML of one message's Markdown text (not yet sanitized: see sanitize.ts). */
export function renderMarkdown(text: string): string {
  renderer ??= createRenderer();
  return renderer.render(text);
}
