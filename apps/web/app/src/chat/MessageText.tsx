import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useMessageHtml } from '../markdown/use-message-html';

/** Taller than this, a message is folded to it with "Show more". */
const FOLDED_PX = 320;

/**
 * A message's text: Markdown rendered and sanitized (markdown/), or the exact text when `raw`.
 * `format` is not consulted: the reference daemon and ours stamp "plain" on every message, so it
 * says nothing about what the author wrote (agents write Markdown); see the README.
 * The exact text also shows for the moment before the renderer's chunk arrives. A long one is
 * folded; "Show more" unfolds it (the virtual list re-measures the row).
 */
export function MessageText({ text, raw }: { text: string; raw: boolean }) {
  const body = useRef<HTMLDivElement>(null);
  const [long, setLong] = useState(false);
  const [open, setOpen] = useState(false);
  const render = useMessageHtml();
  const plain = raw || !render;
  const html = useMemo(() => (plain ? '' : render(text)), [text, plain, render]);

  useLayoutEffect(() => {
    const el = body.current;
    if (el) setLong(el.scrollHeight > FOLDED_PX + 48);
  }, [html, plain]);

  const folded = long && !open;
  return (
    <div className="msg-text-wrap" data-folded={folded || undefined}>
      {plain ? (
        <div ref={body} className={raw ? 'msg-text msg-raw' : 'msg-text msg-plain'}>
          {text}
        </div>
      ) : (
        <div ref={body} className="msg-text md" dangerouslySetInnerHTML={{ __html: html }} />
      )}
      {long && (
        <button type="button" className="msg-more" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}
