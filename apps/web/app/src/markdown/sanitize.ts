import DOMPurify from 'dompurify';
import { isSafeUrl } from './markdown';

// The last step before message HTML enters the page: DOMPurify with an allow-list of exactly the
// elements and attributes the Markdown renderer produces. markdown-it already escapes raw HTML
// and refuses unsafe links; this catches whatever a renderer bug or a future option lets through.

const ALLOWED_TAGS = [
  'a', 'blockquote', 'br', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol', 'p', 'pre',
  's', 'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
];
const ALLOWED_ATTR = ['href', 'target', 'rel', 'class', 'start', 'style'];

const purify = DOMPurify(window);
purify.addHook('uponSanitizeAttribute', (node, data) => {
  // Table alignment is the only inline style the renderer writes.
  if (data.attrName === 'style') data.keepAttr = (node.nodeName === 'TD' || node.nodeName === 'TH') && /^text-align:(left|right|center)$/.test(data.attrValue);
  if (data.attrName === 'href' && !isSafeUrl(data.attrValue)) data.keepAttr = false;
});
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName !== 'A') return;
  if (!node.getAttribute('href')) {
    node.removeAttribute('target');
    return;
  }
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer');
});

/** Sanitized HTML for `innerHTML`. */
export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}
