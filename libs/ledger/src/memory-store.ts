import { isEventOfKind, type StoredEvent } from '@cccc/ipc-protocol';
import { createHash } from 'node:crypto';
import { claimInput, latestWith, settleInput } from './delivery-ops.js';
import { ledgerError, LedgerErrorCodes } from './errors.js';
import { formatTs } from './event-format.js';
import { deliveryConfirmationsOf, type ConfirmationFact } from './projections/confirmation.js';
import { assertSettleAllowed, claimRefusal, deliveryStatesOf, type DeliveryFact } from './projections/delivery.js';
import { generationCreatedAt } from './projections/generation.js';
import { messageHistoryOf, type HistoryPage } from './projections/history.js';
import { inboxUnread, inboxUnreadCount, type InboxView } from './projections/inbox.js';
import { replyObligationsOf, type ReplyObligation } from './projections/obligations.js';
import { searchOf, tailOf, type EventPage } from './projections/pages.js';
import { undeliveredOf, type UndeliveredView } from './projections/undelivered.js';
import { chatClientId, roleOrPeer } from './projections/recipients.js';
import type { CompactReport } from './storage/compact.js';
import { encodeEvent } from './storage/line-codec.js';
import { CLIENT_ID_WINDOW_MS } from './storage/limits.js';
import { prepareEvent } from './storage/prepare-event.js';
import type { SnapshotReport } from './storage/snapshot.js';
import {
  clampLimit,
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_INBOX_LIMIT,
  DEFAULT_TAIL_LIMIT,
  type ClaimRequest,
  type ClaimResult,
  type DeliveryEvent,
  type Follower,
  type FollowOptions,
  type HistoryRequest,
  type InboxConsumeResult,
  type IntegrityReport,
  type LedgerStore,
  type SearchRequest,
  type SettleRequest,
  type TailRequest,
} from './store.js';
import type { CursorEntry } from './mail/cursor-files.js';
import type { AppendedListener, AppendInput, AppendResult, Clock, LedgerEvent, RoleOf } from './types.js';

/**
 * A LedgerStore over an array, built from the pure projections: a fast fake for other libs'
 * tests and the full-scan oracle the file store's index is compared against.
 */
export class MemoryLedgerStore implements LedgerStore {
  readonly events: LedgerEvent[] = [];
  private readonly cursors = new Map<string, CursorEntry>();
  private closed = false;

  constructor(
    readonly groupId: string,
    private readonly opts: { clock?: Clock; roleOf?: RoleOf; clientIdWindowMs?: number; onAppended?: AppendedListener } = {},
  ) {}

  private now(): Date {
    return this.opts.clock ? this.opts.clock() : new Date();
  }

  private ensureOpen(): void {
    if (this.closed) throw ledgerError(LedgerErrorCodes.ledgerClosed, `ledger of ${this.groupId} is closed`);
  }

  private appendSync<K extends string>(input: AppendInput<K>): AppendResult<K> {
    this.ensureOpen();
    const { event } = prepareEvent(input, this.groupId, undefined, this.opts.clock);
    const clientId = chatClientId(event);
    if (clientId) {
      for (let i = this.events.length - 1; i >= 0; i--) {
        const e = this.events[i] as LedgerEvent;
        if (e.by !== event.by || chatClientId(e) !== clientId) continue;
        // Only a chat.message carries a client_id, so the earlier event is of this kind.
        if (this.now().getTime() - Date.parse(e.ts) <= (this.opts.clientIdWindowMs ?? CLIENT_ID_WINDOW_MS)) return { event: e as StoredEvent<K>, duplicate: true };
        break;
      }
    }
    this.events.push(event);
    this.opts.onAppended?.(event);
    return { event, duplicate: false };
  }

  async append<K extends string>(input: AppendInput<K>): Promise<AppendResult<K>> {
    return this.appendSync(input);
  }

  async appendMany(inputs: readonly AppendInput[]): Promise<AppendResult[]> {
    for (const input of inputs) prepareEvent(input, this.groupId, undefined, this.opts.clock); // validate all first
    return inputs.map((i) => this.appendSync(i));
  }

  readForward(): Iterable<LedgerEvent> {
    return [...this.events];
  }

  readBackward(): Iterable<LedgerEvent> {
    return [...this.events].reverse();
  }

  follow(opts: FollowOptions = {}): Follower {
    let next = this.events.length;
    if (opts.fromStart) next = 0;
    if (opts.afterEventId) {
      const pos = this.events.findIndex((e) => e.id === opts.afterEventId);
      if (pos < 0) throw ledgerError(LedgerErrorCodes.eventNotFound, `event ${opts.afterEventId} not found`);
      next = pos + 1;
    }
    let closed = false;
    const events = this.events;
    const poll = (): LedgerEvent[] => {
      const out = events.slice(next);
      next = events.length;
      return out;
    };
    return {
      poll,
      close: () => void (closed = true),
      [Symbol.dispose]: () => void (closed = true),
      async *[Symbol.asyncIterator]() {
        while (!closed) {
          const batch = poll();
          for (const e of batch) yield e;
          if (batch.length === 0) await new Promise((r) => setTimeout(r, opts.pollMs ?? 20));
        }
      },
    };
  }

  findById(id: string): LedgerEvent | undefined {
    return this.events.find((e) => e.id === id);
  }

  findByPrefix(prefix: string): LedgerEvent | undefined {
    if (!/^[0-9a-f]{1,32}$/.test(prefix)) return undefined;
    const ids = new Set(this.events.filter((e) => e.id.startsWith(prefix)).map((e) => e.id));
    if (ids.size > 1) throw ledgerError(LedgerErrorCodes.ambiguousEventId, `event id prefix ${prefix} is ambiguous`, { prefix });
    return this.events.find((e) => e.id.startsWith(prefix));
  }

  ordinalOf(id: string): number | undefined {
    const i = this.events.findIndex((e) => e.id === id);
    return i === -1 ? undefined : i + 1;
  }

  findByClientId(by: string, clientId: string): StoredEvent<'chat.message'> | undefined {
    // The latest use of the key, like the file store's index (an expired key can be reused).
    const original = this.events.findLast(
      (e): e is StoredEvent<'chat.message'> => isEventOfKind(e, 'chat.message') && e.by === by && e.data.client_id === clientId,
    );
    if (!original) return undefined;
    const now = (this.opts.clock ? this.opts.clock() : new Date()).getTime();
    return now - Date.parse(original.ts) <= (this.opts.clientIdWindowMs ?? CLIENT_ID_WINDOW_MS) ? original : undefined;
  }

  findReplyRequestCancel(sourceEventId: string): StoredEvent<'chat.reply_request.cancelled'> | undefined {
    return this.events.find(
      (e): e is StoredEvent<'chat.reply_request.cancelled'> => isEventOfKind(e, 'chat.reply_request.cancelled') && e.data.source_event_id === sourceEventId,
    );
  }

  mailCursorOf(actorId: string): CursorEntry | undefined {
    return this.cursors.get(actorId);
  }

  inboxPeek(q: { actorId: string; limit?: number }): InboxView {
    return inboxUnread(this.events, {
      actorId: q.actorId,
      role: roleOrPeer(this.opts.roleOf, q.actorId),
      cursorEventId: this.cursors.get(q.actorId)?.event_id,
      limit: clampLimit(q.limit, DEFAULT_INBOX_LIMIT),
    });
  }

  inboxCount(q: { actorId: string }): number {
    return inboxUnreadCount(this.events, { actorId: q.actorId, role: roleOrPeer(this.opts.roleOf, q.actorId), cursorEventId: this.cursors.get(q.actorId)?.event_id });
  }

  async inboxConsume(q: { actorId: string; by?: string; limit?: number }): Promise<InboxConsumeResult> {
    const view = this.inboxPeek(q);
    const last = view.messages[view.messages.length - 1];
    if (!last) return { messages: [], cursor: { ...view.cursor, updated_at: this.cursors.get(q.actorId)?.updated_at ?? '' }, event: null };
    const { event } = this.appendSync({ kind: 'mail.read', by: q.by ?? q.actorId, data: { actor_id: q.actorId, event_id: last.id } });
    const cursor = { event_id: last.id, ts: last.ts, updated_at: formatTs(this.now(), this.opts.clock !== undefined) };
    this.cursors.set(q.actorId, cursor);
    return { messages: view.messages, cursor, event };
  }

  messageHistory(q: HistoryRequest): HistoryPage {
    return messageHistoryOf(this.events, {
      actorId: q.actorId,
      role: roleOrPeer(this.opts.roleOf, q.actorId),
      mode: q.mode,
      query: q.query,
      beforeEventId: q.beforeEventId,
      limit: clampLimit(q.limit, DEFAULT_HISTORY_LIMIT),
    });
  }

  tail(q: TailRequest): EventPage {
    return tailOf(this.events, { kinds: q.kinds, beforeEventId: q.beforeEventId, limit: clampLimit(q.limit, DEFAULT_TAIL_LIMIT) });
  }

  search(q: SearchRequest): EventPage {
    return searchOf(this.events, { query: q.query, kinds: q.kinds, limit: clampLimit(q.limit, DEFAULT_TAIL_LIMIT) });
  }

  undelivered(q: { actorId: string }): UndeliveredView {
    return undeliveredOf(this.events, q.actorId, roleOrPeer(this.opts.roleOf, q.actorId));
  }

  replyObligations(sourceEventId: string): ReplyObligation[] {
    return replyObligationsOf(this.events, sourceEventId);
  }

  deliveryState(sourceEventId: string): DeliveryFact[] {
    return deliveryStatesOf(this.events, sourceEventId);
  }

  deliveryConfirmations(sourceEventId: string): ConfirmationFact[] {
    return deliveryConfirmationsOf(this.events, sourceEventId);
  }

  private latest(sourceEventId: string, actorId: string): DeliveryFact | undefined {
    return latestWith(undefined, this.events, sourceEventId, actorId);
  }

  async claimDelivery(req: ClaimRequest): Promise<ClaimResult> {
    const createdAt = req.actorCreatedAt ?? generationCreatedAt(this.events, req.actorId) ?? '';
    const latest = this.latest(req.sourceEventId, req.actorId);
    const refusal = claimRefusal(latest?.state, req.forceAmbiguous ?? false);
    if (refusal && latest) return { claimed: false, delivery_id: latest.delivery_id, refusal, latest };
    const { input, deliveryId } = claimInput(this.groupId, req, createdAt);
    return { claimed: true, delivery_id: deliveryId, event: this.appendSync(input).event };
  }

  async settleDelivery(req: SettleRequest): Promise<DeliveryEvent> {
    const latest = this.latest(req.sourceEventId, req.actorId);
    const input = settleInput(req, latest);
    assertSettleAllowed(latest?.state, req.state, latest?.delivery_id ?? '');
    return this.appendSync(input).event;
  }

  async settleStrandedClaims(reason = 'claim left by a previous daemon process'): Promise<DeliveryEvent[]> {
    const claimed = new Map<string, { actor_id: string; source_event_id: string }>();
    for (const e of this.events) {
      if (!isEventOfKind(e, 'runtime.delivery')) continue;
      const { actor_id, source_event_id, state } = e.data;
      const key = `${source_event_id}\0${actor_id}`;
      if (state === 'claimed') claimed.set(key, { actor_id, source_event_id });
      else claimed.delete(key);
    }
    const out: DeliveryEvent[] = [];
    for (const f of claimed.values()) out.push(await this.settleDelivery({ actorId: f.actor_id, sourceEventId: f.source_event_id, state: 'ambiguous', reason }));
    return out;
  }

  async snapshot(opts: { reason?: string } = {}): Promise<SnapshotReport> {
    const hash = createHash('sha256');
    for (const e of this.events) hash.update(encodeEvent(e) + '\n');
    return {
      schema: 1,
      group_id: this.groupId,
      created_at: formatTs(this.now(), this.opts.clock !== undefined),
      reason: opts.reason ?? 'manual',
      event_count: this.events.length,
      sha256: hash.digest('hex'),
      first_event_id: this.events[0]?.id ?? null,
      last_event_id: this.events[this.events.length - 1]?.id ?? null,
      segment_count: 0,
    };
  }

  async compact(): Promise<CompactReport> {
    return { rotated: false, reason: 'the in-memory store has no files to rotate', reconciled: [], compressed: [] };
  }

  integrity(): IntegrityReport {
    return { tornTail: null, damaged: [], indexRebuilt: null, recoveredConsume: null };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
