import { isEventOfKind } from '@cccc/ipc-protocol/browser';
import type { LedgerEvent } from '../api/types';

// `system.notify` in the conversation: the notices meant for the people watching the group.
// A notice aimed at one actor (`target_actor_id`: a nudge, a Mail or reply reminder) is that
// agent's prompt, not news for the user; a broadcast one (an agent's cccc_notify, an automation
// or status notice) is. Mail and reply reminders are actor-only whatever their target
// (REFERENCE_NOTES §1.5).

const ACTOR_ONLY_KINDS = new Set(['mail_notice', 'reply_notice']);

export interface Notice {
  readonly kind: string;
  readonly priority: 'low' | 'normal' | 'high' | 'urgent';
  readonly title: string;
  readonly message: string;
}

/** The notice an event shows in the conversation, or null when it is not for the user. */
export function noticeForUser(event: LedgerEvent): Notice | null {
  if (!isEventOfKind(event, 'system.notify')) return null;
  const d = event.data;
  const target = d.target_actor_id ?? null;
  if ((target !== null && target !== 'user') || ACTOR_ONLY_KINDS.has(d.kind)) return null;
  const title = d.title?.trim() ?? '';
  const message = d.message?.trim() ?? '';
  if (!title && !message) return null;
  return { kind: d.kind, priority: d.priority ?? 'normal', title, message };
}
