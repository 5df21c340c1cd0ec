import { mailNotice } from '@cccc/pty-runtime';
import { isEventOfKind, type CCCSEventV1 } from '@cccc/ipc-protocol';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import { errorFields, type Logger } from '../log.js';
import { modeOf } from './gates.js';

export const DEFAULT_MAIL_NOTICE_AFTER_SECONDS = 1800;
export const DEFAULT_REPLY_NOTICE_AFTER_SECONDS = 900;

export interface NoticeDeps {
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'get' | 'append'>;
  readonly logger: Logger;
  /** Why the actor may not be woken now (paused/stopped group, disabled, not running). */
  holdReason(groupId: string, actorId: string): string | undefined;
  /** Hand a committed system.notify to delivery. */
  deliver(groupId: string, event: CCCSEventV1): Promise<void>;
}

/**
 * §8.6 Mail notice and reply notice: one content-free, targeted `system.notify` each, never
 * repeated or escalated, never for paused, stopped or disabled actors. Timers are in-memory;
 * pending Mail gets a fresh window at the next actor start.
 */
export class NoticeTimers implements Disposable {
  private readonly mailTimers = new Map<string, NodeJS.Timeout>();
  private readonly replyTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: NoticeDeps) {}

  private settings(groupId: string): { mail: number; reply: number } {
    const d = this.deps.groups.get(groupId).delivery ?? {};
    return {
      mail: d.mail_notice_after_seconds ?? DEFAULT_MAIL_NOTICE_AFTER_SECONDS,
      reply: d.reply_notice_after_seconds ?? DEFAULT_REPLY_NOTICE_AFTER_SECONDS,
    };
  }

  /** Concrete-recipient Mail arms a window; a running window keeps its earlier deadline. */
  mailCommitted(groupId: string, event: CCCSEventV1): void {
    if (!isEventOfKind(event, 'chat.message') || modeOf(event) !== 'mail') return;
    for (const actorId of event.data.to ?? []) if (!actorId.startsWith('@') && actorId !== 'user' && actorId !== event.by) this.armMail(groupId, actorId);
  }

  armMail(groupId: string, actorId: string): void {
    const key = `${groupId}/${actorId}`;
    if (this.mailTimers.has(key)) return;
    const after = this.settings(groupId).mail;
    if (after <= 0) return;
    const timer = setTimeout(() => {
      this.mailTimers.delete(key);
      void this.fireMail(groupId, actorId).catch((error) => this.logFailure('mail_notice', groupId, actorId, error));
    }, after * 1000);
    timer.unref?.();
    this.mailTimers.set(key, timer);
  }

  /** A request_reply was accepted by the actor's runtime: its obligation timer starts now. */
  replyAccepted(groupId: string, actorId: string, source: CCCSEventV1): void {
    const after = this.settings(groupId).reply;
    if (after <= 0) return;
    const timer = setTimeout(() => {
      this.replyTimers.delete(timer);
      void this.fireReply(groupId, actorId, source).catch((error) => this.logFailure('reply_notice', groupId, actorId, error));
    }, after * 1000);
    timer.unref?.();
    this.replyTimers.add(timer);
  }

  private async fireMail(groupId: string, actorId: string): Promise<void> {
    if (this.deps.holdReason(groupId, actorId)) return;
    const store = await this.deps.ledgers.get(groupId);
    // Mail with accepted/ambiguous manual delivery no longer needs an active notice.
    const waiting = store
      .inboxPeek({ actorId, limit: 1000 })
      .messages.filter((m) => !store.deliveryState(m.id).some((f) => f.actor_id === actorId && (f.state === 'accepted' || f.state === 'ambiguous')));
    if (waiting.length === 0) return;
    const notice = mailNotice(waiting.length);
    await this.notify(groupId, actorId, notice.kind, notice.title ?? '', notice.message ?? '');
  }

  private async fireReply(groupId: string, actorId: string, source: CCCSEventV1): Promise<void> {
    if (this.deps.holdReason(groupId, actorId)) return;
    const store = await this.deps.ledgers.get(groupId);
    const open = store.replyObligations(source.id).some((o) => o.actor_id === actorId && o.status === 'open');
    if (!open) return;
    await this.notify(groupId, actorId, 'reply_notice', 'Reply pending', `A reply is still expected for event_id=${source.id}. Use cccc_message_reply with that event_id when ready.`);
  }

  private async notify(groupId: string, actorId: string, kind: string, title: string, message: string): Promise<void> {
    const { event } = await this.deps.ledgers.append(groupId, {
      kind: 'system.notify',
      by: 'system',
      data: { kind, priority: 'normal', title, message, target_actor_id: actorId, im_visibility: 'internal', context: {} },
    });
    await this.deps.deliver(groupId, event);
  }

  private logFailure(kind: string, groupId: string, actorId: string, error: unknown): void {
    this.deps.logger.log('warn', 'notice timer failed', { kind, group_id: groupId, actor_id: actorId, ...errorFields(error) });
  }

  [Symbol.dispose](): void {
    for (const t of this.mailTimers.values()) clearTimeout(t);
    for (const t of this.replyTimers) clearTimeout(t);
    this.mailTimers.clear();
    this.replyTimers.clear();
  }
}
