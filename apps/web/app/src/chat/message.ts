import type { LedgerEvent, RecipientStatus } from '../api/types';

// Pure helpers over chat.message events and their per-recipient status (no React, no IO).

export type Mode = 'send' | 'request_reply' | 'mail';

export interface Attachment {
  readonly kind?: string;
  readonly path: string;
  readonly title?: string;
  readonly mime_type?: string;
  readonly bytes?: number;
}

/** The fields of chat.message data the timeline shows. */
export interface ChatFields {
  readonly text: string;
  readonly to: readonly string[];
  /** null on legacy rows, which the timeline labels "normal". */
  readonly mode: Mode | null;
  readonly replyTo: string | null;
  readonly quote: string | null;
  readonly attachments: readonly Attachment[];
  readonly senderTitle: string | null;
}

export function chatFields(event: LedgerEvent): ChatFields {
  const d = (event.data ?? {}) as Record<string, unknown>;
  const mode = d.message_mode;
  return {
    text: typeof d.text === 'string' ? d.text : '',
    to: Array.isArray(d.to) ? d.to.filter((x): x is string => typeof x === 'string') : [],
    mode: mode === 'send' || mode === 'request_reply' || mode === 'mail' ? mode : null,
    replyTo: typeof d.reply_to === 'string' && d.reply_to ? d.reply_to : null,
    quote: typeof d.quote_text === 'string' && d.quote_text ? d.quote_text : null,
    attachments: Array.isArray(d.attachments)
      ? d.attachments.filter((a): a is Attachment => typeof a === 'object' && a !== null && typeof (a as Attachment).path === 'string')
      : [],
    senderTitle: typeof d.sender_title === 'string' && d.sender_title ? d.sender_title : null,
  };
}

/** Chip text for a mode: a reply in send mode is still "send"; legacy rows are "normal". */
export function modeLabel(mode: Mode | null): string {
  return mode === 'request_reply' ? 'request reply' : mode ?? 'normal';
}

export type StatusTone = 'ok' | 'warn' | 'bad' | 'muted';

/** The labels one recipient's status shows, most important first. */
export function statusLabels(status: RecipientStatus, mode: Mode | null): Array<{ text: string; tone: StatusTone }> {
  const out: Array<{ text: string; tone: StatusTone }> = [];
  switch (status.delivery_state) {
    case 'claimed':
      out.push({ text: 'delivering', tone: 'muted' });
      break;
    case 'accepted':
      // A hooked runtime confirms the prompt was submitted; "unconfirmed" means the text was
      // typed into the terminal but no UserPromptSubmit followed within the window.
      if (status.delivery_confirmation === 'unconfirmed') out.push({ text: 'typed but not submitted', tone: 'warn' });
      else out.push({ text: status.delivery_confirmation === 'confirmed' ? 'delivered · submitted' : 'delivered', tone: 'ok' });
      break;
    case 'failed':
      out.push({ text: 'delivery failed', tone: 'bad' });
      break;
    case 'ambiguous':
      out.push({ text: 'delivery ambiguous', tone: 'warn' });
      break;
    default:
      out.push({ text: mode === 'mail' ? 'in inbox' : 'not delivered yet', tone: 'muted' });
  }
  if (mode === 'mail') out.push(status.read ? { text: 'read', tone: 'ok' } : { text: 'unread', tone: 'muted' });
  if (status.reply_requested || status.replied || status.cancelled) {
    if (status.replied) out.push({ text: 'replied', tone: 'ok' });
    else if (status.cancelled) out.push({ text: 'reply cancelled', tone: 'muted' });
    else out.push({ text: 'awaiting reply', tone: 'warn' });
  }
  return out;
}

/** Kinds whose arrival changes some message's per-recipient status. */
export const STATUS_KINDS = new Set(['runtime.delivery', 'mail.read', 'chat.reply_request.cancelled', 'x.cccc.delivery_confirmation']);

/**
 * Which loaded messages a live event makes stale: a delivery / confirmation / cancel names its
 * source event; a reply closes its parent's obligation; a mail.read watermark can flip every
 * earlier Mail message of that actor, so all loaded Mail messages are refreshed.
 */
export function staleIdsFor(event: LedgerEvent, loaded: readonly LedgerEvent[]): string[] {
  const d = (event.data ?? {}) as Record<string, unknown>;
  if (event.kind === 'chat.message') {
    const replyTo = typeof d.reply_to === 'string' ? d.reply_to : null;
    return replyTo ? [replyTo, event.id] : [event.id];
  }
  if (event.kind === 'mail.read') return loaded.filter((e) => (e.data as { message_mode?: string }).message_mode === 'mail').map((e) => e.id);
  if (STATUS_KINDS.has(event.kind) && typeof d.source_event_id === 'string') return [d.source_event_id];
  return [];
}

/** Merge a page into the loaded list: dedupe by id, keep ledger (append) order. */
export function mergeOlder(older: readonly LedgerEvent[], loaded: readonly LedgerEvent[]): LedgerEvent[] {
  const seen = new Set(loaded.map((e) => e.id));
  return [...older.filter((e) => !seen.has(e.id)), ...loaded];
}

export function appendLive(loaded: readonly LedgerEvent[], event: LedgerEvent): readonly LedgerEvent[] {
  // Live events arrive in append order; a repeat after a reconnect is dropped.
  for (let i = loaded.length - 1; i >= 0 && i >= loaded.length - 200; i--) if (loaded[i]!.id === event.id) return loaded;
  return [...loaded, event];
}

export function shortTime(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
