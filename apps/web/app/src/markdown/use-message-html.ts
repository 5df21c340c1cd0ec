import { useSyncExternalStore } from 'react';

// The Markdown renderer, sanitizer and highlighter (~190 KB minified) are a chunk of their own,
// requested as soon as the app starts: the first paint does not wait for them, and until they
// arrive a message shows its plain text.

type Render = (text: string) => string;

let render: Render | null = null;
const listeners = new Set<() => void>();

void import('./message-html').then(
  (m) => {
    render = m.messageHtml;
    for (const l of listeners) l();
  },
  () => undefined, // messages stay plain text: readable, never unsafe
);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The message-HTML renderer once its chunk has loaded, else null. */
export function useMessageHtml(): Render | null {
  return useSyncExternalStore(subscribe, () => render);
}
