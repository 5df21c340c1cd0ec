import type { DeliveryState, StoredEvent } from '@cccc/ipc-protocol';
import type { ConfirmationFact } from './projections/confirmation.js';
import type { DeliveryFact, ClaimRefusal } from './projections/delivery.js';
import type { HistoryMode, HistoryPage } from './projections/history.js';
import type { InboxView } from './projections/inbox.js';
import type { ReplyObligation } from './projections/obligations.js';
import type { EventPage } from './projections/pages.js';
import type { UndeliveredView } from './projections/undelivered.js';
import type { CursorEntry } from './mail/cursor-files.js';
import type { AppendInput, AppendResult, LedgerEvent } from './types.js';
import type { SnapshotReport } from './storage/snapshot.js';
import type { CompactReport } from './storage/compact.js';

export interface InboxConsumeResult {
  messages: LedgerEvent[];
  cursor: CursorEntry;
  /** The mail.read commit record, or null when the Inbox was empty. */
  event: StoredEvent<'mail.read'> | null;
}

export interface HistoryRequest {
  actorId: string;
  mode?: HistoryMode;
  query?: string;
  beforeEventId?: string;
  limit?: number;
}

export interface TailRequest {
  /** Only these kinds (exact match); every kind when absent or empty. */
  kinds?: readonly string[];
  /** The page ends just before this event, which must exist (`event_not_found`, field `before_event_id`). */
  beforeEventId?: string;
  limit?: number;
}

export interface SearchRequest {
  /** Case-insensitive substring of a message's text, a notice's title or message, or another event's string `text` / `title` / `message`. */
  query: string;
  kinds?: readonly string[];
  limit?: number;
}

export interface ClaimRequest {
  actorId: string;
  sourceEventId: string;
  transport: string;
  /** `created_at` of the actor generation; defaults to the one recorded by its latest actor.add. */
  actorCreatedAt?: string;
  forceAmbiguous?: boolean;
}

/** A `runtime.delivery` fact as the store appended it. */
export type DeliveryEvent = StoredEvent<'runtime.delivery'>;

export type ClaimResult =
  | { claimed: true; delivery_id: string; event: DeliveryEvent }
  | { claimed: false; delivery_id: string; refusal: ClaimRefusal; latest: DeliveryFact };

export interface SettleRequest {
  actorId: string;
  sourceEventId: string;
  state: Exclude<DeliveryState, 'claimed'>;
  reason?: string;
}

export interface FollowOptions {
  /** Resume strictly after this event (it must exist). */
  afterEventId?: string;
  /** Start at the first event of the ledger; default is the current end. */
  fromStart?: boolean;
  pollMs?: number;
}

/** What a follower offers: synchronous polls and async iteration. */
export interface Follower extends AsyncIterable<LedgerEvent>, Disposable {
  poll(): LedgerEvent[];
  close(): void;
}

export interface IntegrityReport {
  /** Bytes after the last newline of ledger.jsonl: a record torn by a crash. */
  tornTail: { offset: number; bytes: number } | null;
  /** Complete lines that are not events (never dropped from the file, only reported). */
  damaged: Array<{ segment: number | null; offset: number; bytes: number; reason: string }>;
  /** Why the derived index was rebuilt at open, if it was. */
  indexRebuilt: string | null;
  /** Pending consume marker handled at open. */
  recoveredConsume: 'completed' | 'discarded' | null;
}

/**
 * The group ledger as the rest of the kernel sees it. The file store and the in-memory store
 * both implement it and are held to the same contract suite (`@cccc/ledger/testing`).
 */
export interface LedgerStore extends AsyncDisposable {
  readonly groupId: string;
  /** `data` is typed by `kind`: a known kind's registry type, an open record for vendor kinds. */
  append<K extends string>(input: AppendInput<K>): Promise<AppendResult<K>>;
  appendMany(inputs: readonly AppendInput[]): Promise<AppendResult[]>;
  readForward(): Iterable<LedgerEvent>;
  readBackward(): Iterable<LedgerEvent>;
  follow(opts?: FollowOptions): Follower;
  findById(id: string): LedgerEvent | undefined;
  /** Unique id prefix lookup; an ambiguous prefix throws `ambiguous_event_id`. */
  findByPrefix(prefix: string): LedgerEvent | undefined;
  /** Append-order position of an event (1-based), for comparing two events' order. */
  ordinalOf(id: string): number | undefined;
  /**
   * The chat.message a `(by, client_id)` pair identifies within the idempotency window, so a
   * caller can replay it before re-validating a retried request.
   */
  findByClientId(by: string, clientId: string): StoredEvent<'chat.message'> | undefined;
  /** The first `chat.reply_request.cancelled` of a source message, if any (cancel idempotency). */
  findReplyRequestCancel(sourceEventId: string): StoredEvent<'chat.reply_request.cancelled'> | undefined;
  /** The persisted Mail cursor of an actor (`state/read_cursors.json`), if any. */
  mailCursorOf(actorId: string): CursorEntry | undefined;
  inboxPeek(q: { actorId: string; limit?: number }): InboxView;
  inboxConsume(q: { actorId: string; by?: string; limit?: number }): Promise<InboxConsumeResult>;
  /** How many Mail messages are unread (mail_pending); does not move the cursor. */
  inboxCount(q: { actorId: string }): number;
  messageHistory(q: HistoryRequest): HistoryPage;
  /** The latest events (of some kinds) before a point, oldest first; `has_more`: older ones exist. */
  tail(q: TailRequest): EventPage;
  /** Events matching a text query (of some kinds), newest first; `has_more`: more matches exist. */
  search(q: SearchRequest): EventPage;
  /**
   * Actor start (§8.6 recovery): the pushes of the actor's current generation still owed to it
   * (no delivery fact, or a failed one) and the generation's legacy `chat.read` records.
   */
  undelivered(q: { actorId: string }): UndeliveredView;
  replyObligations(sourceEventId: string): ReplyObligation[];
  deliveryState(sourceEventId: string): DeliveryFact[];
  /** Latest `x.cccc.delivery_confirmation` per recipient (prompt-submit evidence after `accepted`). */
  deliveryConfirmations(sourceEventId: string): ConfirmationFact[];
  claimDelivery(req: ClaimRequest): Promise<ClaimResult>;
  settleDelivery(req: SettleRequest): Promise<DeliveryEvent>;
  /** Startup step: every `claimed` left by a previous process becomes `ambiguous`. */
  settleStrandedClaims(reason?: string): Promise<DeliveryEvent[]>;
  snapshot(opts?: { reason?: string }): Promise<SnapshotReport>;
  compact(opts?: { reason?: string; force?: boolean }): Promise<CompactReport>;
  integrity(): IntegrityReport;
  close(): Promise<void>;
}

export const DEFAULT_INBOX_LIMIT = 50;
export const DEFAULT_HISTORY_LIMIT = 50;
export const DEFAULT_TAIL_LIMIT = 50;
export const MAX_QUERY_LIMIT = 1000;

export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(MAX_QUERY_LIMIT, Math.floor(limit)));
}
