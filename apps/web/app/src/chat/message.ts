import type { AttachmentRefV1 } from '@cccc/ipc-protocol';
import { isEventOfKind } from '@cccc/ipc-protocol/browser';
import type { LedgerEvent, RecipientStatus } from '../api/types';
import { en, type MessageKey } from '../i18n/catalogs/en';

/** Labels are catalog keys; callers pass the page's `t`, and English is the default. */
type Translate = (key: MessageKey) => string;
const english: Translate = (key) => en[key];

// Pure helpers over chat.message events and their per-recipient status (no React, no IO).

export type Mode = 'send' | 'request_reply' | 'mail';

export type Attachment = AttachmentRefV1;

/** The fields of chat.message data the timeline shows. */
export interface ChatFields {
  readonly text: string;
  readonly to: readonly string[];
  /** null on legacy rows, which the timeline labels "normal". */
  readonly mode: Mode | null;
  readonly replyTo: string | null;
  readonly quote: string | null;
  readonly attachments: readonly Attachment[];
  /** The sender's title when the message was written (a snapshot the reference writes). */
  readonly senderTitle: string | null;
  /** The sender's runtime when the message was written (same). */
  readonly senderRuntime: string | null;
}

const NO_FIELDS: ChatFields = { text: '', to: [], mode: null, replyTo: null, quote: null, attachments: [], senderTitle: null, senderRuntime: null };

const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** What a chat.message shows (empty fields for any other kind). */
export function chatFields(event: LedgerEvent): ChatFields {
  if (!isEventOfKind(event, 'chat.message')) return NO_FIELDS;
  const d = event.data;
  return {
    text: d.text,
    to: d.to ?? [],
    mode: d.message_mode ?? null,
    replyTo: nonEmpty(d.reply_to),
    quote: nonEmpty(d.quote_text),
    attachments: d.attachments ?? [],
    senderTitle: nonEmpty(d.sender_title),
    senderRuntime: nonEmpty(d.sender_runtime),
  };
}

/** Chip text for a mode: a reply in send mode is still "send"; legacy rows are "normal". */
export function modeLabel(mode: Mode | null, t: Translate = english): string {
  return t(mode ? `composer.mode.${mode}` : 'chat.mode.normal');
}

export type StatusTone = 'ok' | 'warn' | 'bad' | 'muted';

/** The labels one recipient's status shows, most important first. */
export function statusLabels(status: RecipientStatus, mode: Mode | null, t: Translate = english): Array<{ text: string; tone: StatusTone }> {
  const out: Array<{ text: string; tone: StatusTone }> = [];
  switch (status.delivery_state) {
    case 'claimed':
      out.push({ text: t('status.delivering'), tone: 'muted' });
      break;
    case 'accepted':
      // A hooked runtime confirms the prompt was submitted; "unconfirmed" means the text was
      // typed into the terminal but no UserPromptSubmit followed within the window.
      if (status.delivery_confirmation === 'unconfirmed') out.push({ text: t('status.typedNotSubmitted'), tone: 'warn' });
      else out.push({ text: t(status.delivery_confirmation === 'confirmed' ? 'status.submitted' : 'status.delivered'), tone: 'ok' });
      break;
    case 'failed':
      out.push({ text: t('status.failed'), tone: 'bad' });
      break;
    case 'ambiguous':
      out.push({ text: t('status.ambiguous'), tone: 'warn' });
      break;
    default:
      out.push({ text: t(mode === 'mail' ? 'status.inInbox' : 'status.pending'), tone: 'muted' });
  }
  if (mode === 'mail') out.push(status.read ? { text: t('status.read'), tone: 'ok' } : { text: t('status.unread'), tone: 'muted' });
  if (status.reply_requested || status.replied || status.cancelled) {
    if (status.replied) out.push({ text: t('status.replied'), tone: 'ok' });
    else if (status.cancelled) out.push({ text: t('status.replyCancelled'), tone: 'muted' });
    else out.push({ text: t('status.awaitingReply'), tone: 'warn' });
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
  if (isEventOfKind(event, 'chat.message')) {
    const replyTo = nonEmpty(event.data.reply_to);
    return replyTo ? [replyTo, event.id] : [event.id];
  }
  if (isEventOfKind(event, 'mail.read')) return loaded.filter((e) => chatFields(e).mode === 'mail').map((e) => e.id);
  if (isEventOfKind(event, 'runtime.delivery') || isEventOfKind(event, 'chat.reply_request.cancelled') || isEventOfKind(event, 'x.cccc.delivery_confirmation')) {
    return [event.data.source_event_id];
  }
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
