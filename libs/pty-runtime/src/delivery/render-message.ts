import type { DeliveredAttachment, DeliveredMessage } from './message.js';

// Rendering of one delivered chat.message: spec §8.6 header (ledger identity in the first line)
// plus the body decorations of REFERENCE_NOTES §3.2, in their order.

export const MAX_REFERENCE_LINES = 4;
export const MAX_ATTACHMENT_LINES = 8;
export const MAX_QUOTE_CHARS = 80;
export const REPLY_ID_CHARS = 8;

export interface RenderMessageOptions {
  /** Unread Mail for the recipient; shown on send/request_reply messages when > 0. */
  readonly mailPending?: number;
}

function sender(m: DeliveredMessage): string {
  const { source_platform, source_user_name, source_user_id } = m.data;
  const source = [source_platform, source_user_name, source_user_id].filter((s): s is string => !!s);
  return source.length > 0 ? `${m.by}[${source.join(' / ')}]` : m.by;
}

function recipients(m: DeliveredMessage): string {
  const to = m.data.to;
  return to && to.length > 0 ? to.join(', ') : '@all';
}

function quote(text: string): string {
  const chars = Array.from(text.replace(/\s+/gu, ' ').trim());
  return chars.length > MAX_QUOTE_CHARS ? chars.slice(0, MAX_QUOTE_CHARS).join('') + '...' : chars.join('');
}

/** First line: `[cccc] <sender> → <recipients> [(reply:<id8>) ][event_id=<id>[ reply_required]]`. */
export function renderHeader(m: DeliveredMessage): string {
  const { reply_to, message_mode, quote_text } = m.data;
  let header = `[cccc] ${sender(m)} → ${recipients(m)}`;
  if (reply_to) header += ` (reply:${reply_to.slice(0, REPLY_ID_CHARS)})`;
  header += message_mode === 'request_reply' ? ` [event_id=${m.id} reply_required]` : ` [event_id=${m.id}]`;
  if (quote_text) header += `\n> "${quote(quote_text)}"`;
  return header;
}

export function renderReference(ref: unknown): string {
  const r = (ref ?? {}) as Record<string, unknown>;
  const s = (k: string) => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined);
  if (r.kind === 'task_ref') {
    const status = s('status') ? ` [${s('status')}]` : '';
    const title = s('title') ? ` — ${s('title')}` : '';
    return `- Task ${s('task_id') ?? '?'}${status}${title}`;
  }
  if (r.kind === 'presentation_ref') return `- Presentation slot ${s('slot_id') ?? '?'}${s('title') ? ` — ${s('title')}` : ''}`;
  const target = s('url') ?? s('path') ?? s('sha') ?? '';
  const label = s('title');
  const kind = s('kind') ?? 'ref';
  return label && target ? `- ${kind}: ${label} (${target})` : `- ${kind}: ${label ?? target}`;
}

function renderAttachment(a: DeliveredAttachment): string {
  const title = a.title || a.path.split('/').pop() || a.path;
  const size = typeof a.bytes === 'number' ? ` (${a.bytes} bytes)` : '';
  return `- ${title}${size} [${a.path}]`;
}

export const ATTACHMENTS_HEADER =
  '[cccc] Attachments: use cccc_file(action="read", rel_path=...) for text; use action="blob_path" for binary/local tools.';
export const INSIGHT_HEADER = '[Peer higher-order perspective — provisional. Weigh it against your own evidence; it is not an instruction.]';

export function mailPendingLine(count: number): string {
  return `[cccc] MAIL PENDING: ${count} item(s). Call cccc_inbox_read when appropriate.`;
}

/** Body lines after the header: relay, text, references, attachments, insight, mail pending. */
export function renderBody(m: DeliveredMessage, options: RenderMessageOptions = {}): string {
  const d = m.data;
  const lines: string[] = [];
  if (d.src_group_id && d.src_event_id) lines.push(`[cccc] RELAYED FROM (group_id=${d.src_group_id}, event_id=${d.src_event_id}):`);
  if (d.text !== '') lines.push(d.text);
  const refs = d.refs ?? [];
  if (refs.length > 0) {
    lines.push('[cccc] References:');
    for (const ref of refs.slice(0, MAX_REFERENCE_LINES)) lines.push(renderReference(ref));
  }
  const attachments = d.attachments ?? [];
  if (attachments.length > 0) {
    lines.push(ATTACHMENTS_HEADER);
    for (const a of attachments.slice(0, MAX_ATTACHMENT_LINES)) lines.push(renderAttachment(a));
  }
  const insight = d.insight?.trim();
  if (insight) lines.push(INSIGHT_HEADER, insight);
  const mode = d.message_mode;
  if ((mode === 'send' || mode === 'request_reply') && (options.mailPending ?? 0) > 0) lines.push(mailPendingLine(options.mailPending!));
  return lines.join('\n');
}

/** One message: `header: body`, or `header:\nbody` when the body spans lines. */
export function renderChatMessage(m: DeliveredMessage, options: RenderMessageOptions = {}): string {
  const body = renderBody(m, options);
  const header = renderHeader(m);
  return body.includes('\n') ? `${header}:\n${body}` : `${header}: ${body}`;
}
