import { renderMarkdown } from './markdown';
import { sanitizeHtml } from './sanitize';

/** A message's Markdown text as HTML that is safe to put into the page. */
export function messageHtml(text: string): string {
  return sanitizeHtml(renderMarkdown(text));
}
