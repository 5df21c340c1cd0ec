import { isEventOfKind, type StoredEvent } from '@cccc/ipc-protocol';
import { FileLock } from '@cccc/durable-fs';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { claimDecision, claimInput, settleDecision, settleInput } from './delivery-ops.js';
import { ledgerError, LedgerErrorCodes } from './errors.js';
import { formatTs } from './event-format.js';
import { LedgerIndex } from './index-db/ledger-index.js';
import { IndexQueries } from './index-db/queries.js';
import { catchUpActive, rebuildIndex, staleReason } from './index-db/sync.js';
import {
  deliveryConfirmationsIndexed,
  deliveryStateIndexed,
  eventsDescending,
  inboxCountIndexed,
  inboxPeekIndexed,
  messageHistoryIndexed,
  replyObligationsIndexed,
  tailIndexed,
  undeliveredIndexed,
  type IndexedContext,
} from './indexed-projections.js';
import { readCursors, type CursorEntry } from './mail/cursor-files.js';
import { consumeInbox, recoverConsume, type ConsumeDeps, type ConsumePhase } from './mail/consume.js';
import { ledgerPaths, type LedgerPaths } from './paths.js';
import type { ConfirmationFact } from './projections/confirmation.js';
import type { ClaimRefusal, DeliveryFact } from './projections/delivery.js';
import type { HistoryPage } from './projections/history.js';
import type { InboxView } from './projections/inbox.js';
import type { ReplyObligation } from './projections/obligations.js';
import { kindsOf, searchEvents, type EventPage } from './projections/pages.js';
import type { UndeliveredView } from './projections/undelivered.js';
import { chatClientId, roleOrPeer } from './projections/recipients.js';
import { GroupCommitAppender, type Decide } from './storage/appender.js';
import { SegmentVerification } from './storage/segment-verification.js';
import { prescanActive } from './storage/active-prescan.js';
import { compressSegment, MAX_ACTIVE_BYTES, recordRotation, sealLocked, segmentsToCompress, type CompactReport } from './storage/compact.js';
import { MIN_COMPACT_INTERVAL_MS } from './storage/compact-policy.js';
import { LedgerFollower } from './storage/follower.js';
import { LedgerFiles } from './storage/ledger-files.js';
import { CLIENT_ID_WINDOW_MS } from './storage/limits.js';
import { decodeLine } from './storage/line-codec.js';
import { blobsDurable, prepareEvent, type PreparedEvent } from './storage/prepare-event.js';
import { takeSnapshot, type SnapshotReport } from './storage/snapshot.js';
import {
  clampLimit,
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_INBOX_LIMIT,
  DEFAULT_TAIL_LIMIT,
  type ClaimRequest,
  type ClaimResult,
  type DeliveryEvent,
  type FollowOptions,
  type HistoryRequest,
  type InboxConsumeResult,
  type IntegrityReport,
  type LedgerStore,
  type SearchRequest,
  type SettleRequest,
  type TailRequest,
} from './store.js';
import type { AppendInput, AppendResult, LedgerEvent } from './types.js';
import type { OpenLedgerOptions } from './ledger-options.js';

/** Ords per kind read at a time when a search walks the kind index (`historyQueryPage` in tests). */
const SEARCH_PAGE = 256;

/** The durable JSONL store with its derived SQLite index. */
export class FileLedgerStore implements LedgerStore {
  readonly groupId: string;
  private readonly queries: IndexQueries;
  private readonly appender: GroupCommitAppender;
  private readonly ctx: IndexedContext;
  private recovered: IntegrityReport['recoveredConsume'] = null;
  private closed = false;
  /** A read found bytes that differ from what the index recorded. */
  private indexDisagrees = false;
  /** The automatic compaction in flight, and the earliest time the next one may start. */
  private autoCompaction: Promise<void> | undefined;
  private nextAutoCompactMs = 0;
  private thresholdSeen: { value: number; atMs: number } | undefined;
  private readonly segmentVerification = new SegmentVerification();
  /** Outcome of the last automatic compaction (observability and tests). */
  lastAutoCompaction: { report?: CompactReport; error?: unknown } | undefined;

  constructor(
    readonly paths: LedgerPaths,
    private readonly files: LedgerFiles,
    private readonly index: LedgerIndex,
    private readonly opts: OpenLedgerOptions,
    private readonly rebuilt: string | null,
  ) {
    this.groupId = opts.groupId;
    this.queries = new IndexQueries(index.db);
    this.appender = new GroupCommitAppender(paths, files, index);
    if (opts.lockTimeoutMs) this.appender.lockTimeoutMs = opts.lockTimeoutMs;
    if (opts.backgroundIndexAt) this.appender.backgroundIndexAt = opts.backgroundIndexAt;
    if (opts.autoCompact) this.appender.onCommitted = (bytes) => this.maybeAutoCompact(bytes);
    this.ctx = { queries: this.queries, readOrd: (ord) => this.readOrd(ord), cursorsPath: paths.cursors, historyQueryPage: opts.historyQueryPage };
  }

  async recoverAtOpen(): Promise<void> {
    this.recovered = await recoverConsume(this.consumeDeps());
  }

  private now(): Date {
    return this.opts.clock ? this.opts.clock() : new Date();
  }

  private threshold(): number {
    return this.opts.maxActiveBytes?.() ?? MAX_ACTIVE_BYTES;
  }

  /** The threshold for the per-batch trigger check, asked at most once a second. */
  private triggerThreshold(nowMs: number): number {
    if (!this.thresholdSeen || nowMs - this.thresholdSeen.atMs >= 1000 || nowMs < this.thresholdSeen.atMs) {
      this.thresholdSeen = { value: this.threshold(), atMs: nowMs };
    }
    return this.thresholdSeen.value;
  }

  /**
   * The size trigger: a cheap check after each durable batch. The rotation itself runs on a
   * later turn, takes the writer lock like any compaction (appends wait for it, none is lost)
   * and re-decides there from the shared manifest, so several processes cannot rotate twice.
   */
  private maybeAutoCompact(activeBytes: number): void {
    if (this.closed || this.autoCompaction) return;
    const nowMs = this.now().getTime();
    if (nowMs < this.nextAutoCompactMs || activeBytes < this.triggerThreshold(nowMs)) return;
    const interval = this.opts.compactMinIntervalMs ?? MIN_COMPACT_INTERVAL_MS;
    this.autoCompaction = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.compact({ reason: 'auto' }))
      .then(
        (report) => {
          this.lastAutoCompaction = { report };
        },
        (error: unknown) => {
          this.lastAutoCompaction = { error }; // e.g. a malformed record: tried again after the interval
        },
      )
      .finally(() => {
        this.nextAutoCompactMs = nowMs + interval;
        this.autoCompaction = undefined;
      });
  }

  private nowIso(): string {
    return formatTs(this.opts.clock ? this.opts.clock() : new Date(), this.opts.clock !== undefined);
  }

  private ensureOpen(): void {
    if (this.closed) throw ledgerError(LedgerErrorCodes.ledgerClosed, `ledger of ${this.groupId} is closed`);
  }

  /** Index what other processes appended (or a failed index write missed) before reading. */
  private refresh(): void {
    this.ensureOpen();
    this.appender.flushIndex(); // read-your-writes: acknowledged batches become queryable
    if (this.indexDisagrees) {
      this.indexDisagrees = false;
      this.files.invalidate();
      rebuildIndex(this.index, this.files);
    } else if (this.appender.indexNeedsResync) {
      this.appender.indexNeedsResync = false;
      const reason = staleReason(this.index, this.files);
      if (reason) rebuildIndex(this.index, this.files);
    }
    // Bytes of a batch in flight are not acknowledged yet; other writers' bytes wait a moment.
    if (this.appender.busy) return;
    const { size } = this.files.activeReadFd();
    const hwm = this.index.activeHwm();
    if (size > hwm) catchUpActive(this.index, this.files);
    else if (size < hwm) rebuildIndex(this.index, this.files); // the JSONL wins
  }

  private readOrd(ord: number): LedgerEvent {
    const loc = this.queries.byOrd(ord);
    if (!loc) throw ledgerError(LedgerErrorCodes.eventNotFound, `no event at position ${ord}`);
    const decoded = decodeLine(this.files.readAt(loc.src, loc.off, loc.len).toString('utf8'));
    if (!decoded.ok || decoded.event.id !== loc.id) {
      // The files changed behind the index (the JSONL wins): rebuild on the next call.
      this.indexDisagrees = true;
      throw ledgerError(LedgerErrorCodes.malformedLedger, `index disagrees with the ledger at position ${ord}; the index will be rebuilt`);
    }
    return decoded.event;
  }

  // ---- appends -------------------------------------------------------------------------

  private prepare<K extends string>(input: AppendInput<K>): PreparedEvent<K> {
    return prepareEvent(input, this.groupId, this.paths.groupDir, this.opts.clock);
  }

  /** client_id idempotency per (group, by, client_id), decided under the writer lock. */
  private dedupe(event: LedgerEvent): Decide | undefined {
    const clientId = chatClientId(event);
    if (!clientId) return undefined;
    const windowMs = this.opts.clientIdWindowMs ?? CLIENT_ID_WINDOW_MS;
    return ({ earlier }) => {
      const same = earlier.find((e) => e.by === event.by && chatClientId(e) === clientId);
      if (same) return { write: false, answer: same };
      const ord = this.queries.clientIdOrd(event.by, clientId);
      if (ord === undefined) return { write: true };
      const original = this.readOrd(ord);
      const now = (this.opts.clock ? this.opts.clock() : new Date()).getTime();
      return now - Date.parse(original.ts) <= windowMs ? { write: false, answer: original } : { write: true };
    };
  }

  /** Every write goes through here, so `onAppended` hears each durable event exactly once. */
  private async write(prepared: PreparedEvent, decide: Decide | undefined): ReturnType<GroupCommitAppender['enqueue']> {
    await blobsDurable([prepared]); // a spilled text is durable before the event naming it is written
    const outcome = await this.appender.enqueue(prepared, decide);
    if (outcome.written) this.opts.onAppended?.(prepared.event);
    return outcome;
  }

  private async enqueue<K extends string>(prepared: PreparedEvent<K>): Promise<AppendResult<K>> {
    const outcome = await this.write(prepared, this.dedupe(prepared.event));
    if (outcome.written) return { event: prepared.event, duplicate: false, json: prepared.text };
    // Only a chat.message carries a client_id, so the answer is the earlier event of this kind.
    return { event: outcome.answer as StoredEvent<K>, duplicate: true };
  }

  async append<K extends string>(input: AppendInput<K>): Promise<AppendResult<K>> {
    this.ensureOpen();
    return this.enqueue(this.prepare(input));
  }

  /** All inputs are validated before any is queued, so one bad input writes nothing. */
  async appendMany(inputs: readonly AppendInput[]): Promise<AppendResult[]> {
    this.ensureOpen();
    const prepared: PreparedEvent[] = [];
    try {
      for (const input of inputs) prepared.push(this.prepare(input));
    } catch (err) {
      for (const p of prepared) p.discard();
      throw err;
    }
    await blobsDurable(prepared); // one failed blob: none of the inputs is written
    return Promise.all(prepared.map((p) => this.enqueue(p)));
  }

  // ---- reads ---------------------------------------------------------------------------

  *readForward(): Generator<LedgerEvent> {
    this.ensureOpen();
    for (const line of this.files.forward()) {
      const d = decodeLine(line.bytes.toString('utf8'));
      if (d.ok) yield d.event;
    }
  }

  *readBackward(): Generator<LedgerEvent> {
    this.ensureOpen();
    for (const line of this.files.backward()) {
      const d = decodeLine(line.bytes.toString('utf8'));
      if (d.ok) yield d.event;
    }
  }

  follow(opts: FollowOptions = {}): LedgerFollower {
    this.refresh();
    const segments = this.files.segments();
    const maxSeq = segments.length ? (segments[segments.length - 1]?.seq ?? 0) : 0;
    const { ino } = this.files.activeReadFd();
    if (opts.afterEventId) {
      const loc = this.queries.byId(opts.afterEventId);
      if (!loc) throw ledgerError(LedgerErrorCodes.eventNotFound, `event ${opts.afterEventId} not found`);
      const pos = { src: loc.src, off: loc.off + loc.len + 1, ino, maxSeq, lastId: opts.afterEventId };
      return new LedgerFollower(this.files, pos, opts.pollMs);
    }
    if (opts.fromStart) {
      const first = segments[0];
      const pos = first ? { src: first.seq, off: 0, ino, maxSeq, lastId: undefined } : { src: 0, off: 0, ino, maxSeq, lastId: undefined };
      return new LedgerFollower(this.files, pos, opts.pollMs);
    }
    const pos = { src: 0, off: this.index.activeHwm(), ino, maxSeq, lastId: this.queries.idOfOrd(this.index.eventCount()) };
    return new LedgerFollower(this.files, pos, opts.pollMs);
  }

  findById(id: string): LedgerEvent | undefined {
    this.refresh();
    const loc = this.queries.byId(id);
    return loc ? this.readOrd(loc.ord) : undefined;
  }

  findByPrefix(prefix: string): LedgerEvent | undefined {
    this.refresh();
    if (!/^[0-9a-f]{1,32}$/.test(prefix)) return undefined;
    const rows = this.queries.byPrefix(prefix);
    const first = rows[0];
    if (!first) return undefined;
    if (rows.length > 1 && rows[1]?.id !== first.id) {
      throw ledgerError(LedgerErrorCodes.ambiguousEventId, `event id prefix ${prefix} is ambiguous`, { prefix });
    }
    return this.readOrd(first.ord);
  }

  ordinalOf(id: string): number | undefined {
    this.refresh();
    return this.queries.byId(id)?.ord;
  }

  findByClientId(by: string, clientId: string): StoredEvent<'chat.message'> | undefined {
    this.refresh();
    const ord = this.queries.clientIdOrd(by, clientId);
    if (ord === undefined) return undefined;
    const original = this.readOrd(ord);
    if (!isEventOfKind(original, 'chat.message')) return undefined;
    const now = (this.opts.clock ? this.opts.clock() : new Date()).getTime();
    return now - Date.parse(original.ts) <= (this.opts.clientIdWindowMs ?? CLIENT_ID_WINDOW_MS) ? original : undefined;
  }

  findReplyRequestCancel(sourceEventId: string): StoredEvent<'chat.reply_request.cancelled'> | undefined {
    this.refresh();
    const first = this.queries.cancels(sourceEventId)[0];
    const event = first ? this.readOrd(first.ord) : undefined;
    return event && isEventOfKind(event, 'chat.reply_request.cancelled') ? event : undefined;
  }

  mailCursorOf(actorId: string): CursorEntry | undefined {
    return readCursors(this.paths.cursors).get(actorId);
  }

  // ---- projections ---------------------------------------------------------------------

  inboxPeek(q: { actorId: string; limit?: number }): InboxView {
    this.refresh();
    return inboxPeekIndexed(this.ctx, q.actorId, roleOrPeer(this.opts.roleOf, q.actorId), clampLimit(q.limit, DEFAULT_INBOX_LIMIT));
  }

  inboxCount(q: { actorId: string }): number {
    this.refresh();
    return inboxCountIndexed(this.ctx, q.actorId, roleOrPeer(this.opts.roleOf, q.actorId));
  }

  private consumeDeps(): ConsumeDeps {
    return {
      groupId: this.groupId,
      cursorsPath: this.paths.cursors,
      markerPath: this.paths.cursorsPending,
      lockPath: this.paths.inboxLock,
      queries: () => this.queries,
      nowIso: () => this.nowIso(),
      peek: (actorId, limit) => this.inboxPeek({ actorId, limit }),
      append: (input) => this.append(input),
      onPhase: this.opts.onConsumePhase,
    };
  }

  async inboxConsume(q: { actorId: string; by?: string; limit?: number }): Promise<InboxConsumeResult> {
    this.ensureOpen();
    return consumeInbox(this.consumeDeps(), q.actorId, q.by ?? q.actorId, clampLimit(q.limit, DEFAULT_INBOX_LIMIT));
  }

  messageHistory(q: HistoryRequest): HistoryPage {
    this.refresh();
    return messageHistoryIndexed(this.ctx, {
      actorId: q.actorId,
      role: roleOrPeer(this.opts.roleOf, q.actorId),
      mode: q.mode,
      query: q.query,
      beforeEventId: q.beforeEventId,
      limit: clampLimit(q.limit, DEFAULT_HISTORY_LIMIT),
    });
  }

  tail(q: TailRequest): EventPage {
    this.refresh();
    return tailIndexed(this.ctx, { kinds: q.kinds, beforeEventId: q.beforeEventId, limit: clampLimit(q.limit, DEFAULT_TAIL_LIMIT) });
  }

  search(q: SearchRequest): EventPage {
    this.refresh();
    const kinds = kindsOf(q.kinds);
    // Any kind may hold searchable text, so without kinds the files are read backward as a stream.
    const page = Math.max(this.opts.historyQueryPage ?? SEARCH_PAGE, 1);
    const newestFirst = kinds ? eventsDescending(this.ctx, kinds, Number.MAX_SAFE_INTEGER, page) : this.readBackward();
    return searchEvents(newestFirst, { query: q.query, kinds, limit: clampLimit(q.limit, DEFAULT_TAIL_LIMIT) });
  }

  undelivered(q: { actorId: string }): UndeliveredView {
    this.refresh();
    return undeliveredIndexed(this.ctx, q.actorId, roleOrPeer(this.opts.roleOf, q.actorId));
  }

  replyObligations(sourceEventId: string): ReplyObligation[] {
    this.refresh();
    return replyObligationsIndexed(this.ctx, sourceEventId);
  }

  deliveryState(sourceEventId: string): DeliveryFact[] {
    this.refresh();
    return deliveryStateIndexed(this.ctx, sourceEventId);
  }

  deliveryConfirmations(sourceEventId: string): ConfirmationFact[] {
    this.refresh();
    return deliveryConfirmationsIndexed(this.ctx, sourceEventId);
  }

  private latestDelivery(sourceEventId: string, actorId: string): () => DeliveryFact | undefined {
    return () => deliveryStateIndexed(this.ctx, sourceEventId).find((f) => f.actor_id === actorId);
  }

  async claimDelivery(req: ClaimRequest): Promise<ClaimResult> {
    this.refresh();
    const createdAt = req.actorCreatedAt ?? this.queries.generation(req.actorId)?.created_at ?? '';
    const { input, deliveryId } = claimInput(this.groupId, req, createdAt);
    const prepared = this.prepare(input);
    const outcome = await this.write(prepared, claimDecision(req, this.latestDelivery(req.sourceEventId, req.actorId)));
    if (outcome.written) return { claimed: true, delivery_id: deliveryId, event: prepared.event };
    const { refusal, latest } = outcome.answer as { refusal: ClaimRefusal; latest: DeliveryFact };
    return { claimed: false, delivery_id: latest.delivery_id, refusal, latest };
  }

  async settleDelivery(req: SettleRequest): Promise<DeliveryEvent> {
    this.refresh();
    const input = settleInput(req, this.latestDelivery(req.sourceEventId, req.actorId)());
    const prepared = this.prepare(input);
    const outcome = await this.write(prepared, settleDecision(req, this.latestDelivery(req.sourceEventId, req.actorId)));
    if (!outcome.written) throw ledgerError(LedgerErrorCodes.illegalDeliveryTransition, 'settle was not written');
    return prepared.event;
  }

  async settleStrandedClaims(reason = 'claim left by a previous daemon process'): Promise<DeliveryEvent[]> {
    this.refresh();
    const out: DeliveryEvent[] = [];
    for (const row of this.queries.strandedClaims()) {
      out.push(await this.settleDelivery({ actorId: row.actor_id, sourceEventId: row.source_id, state: 'ambiguous', reason }));
    }
    return out;
  }

  // ---- maintenance ---------------------------------------------------------------------

  async snapshot(opts: { reason?: string } = {}): Promise<SnapshotReport> {
    this.ensureOpen();
    return await this.underMaintenanceLock(() =>
      this.holding(this.paths.lock, () => {
        this.files.invalidate();
        return takeSnapshot(this.files, this.groupId, this.nowIso(), opts.reason ?? 'manual', this.paths.snapshotLatest);
      }),
    );
  }

  /**
   * Rotate: under the maintenance lock throughout, and the writer lock only for the sealing step
   * (a rename, an index range update, one directory sync, a new active file: the cost of what is
   * sealed, not of the history). The manifest is written and older sealed segments are gzipped
   * after the writer lock is released, the pre-read and the gzip on low-priority worker threads:
   * appends never wait on either.
   */
  async compact(opts: { reason?: string; force?: boolean; maxActiveBytes?: number } = {}): Promise<CompactReport> {
    return await this.underMaintenanceLock(async () => {
      // Sealed history is checked for damage before the writer lock, segment by segment (once per
      // process), and so is the active file up to its current end; the index takes what the
      // background writer holds. Under the writer lock only what was appended meanwhile is read.
      await this.segmentVerification.verifyAll(this.paths.segmentsDir);
      const activeScanned = await prescanActive(this.paths.active);
      this.ensureOpen();
      this.appender.flushIndex();
      const sealed = await this.underWriterLock(async () => {
        this.appender.flushIndex();
        catchUpActive(this.index, this.files);
        return await sealLocked(this.paths, this.files, this.index, {
          activeScanned,
          now: this.now(),
          reason: opts.reason ?? 'manual',
          force: opts.force ?? false,
          maxActiveBytes: opts.maxActiveBytes ?? this.threshold(),
          minIntervalMs: this.opts.compactMinIntervalMs ?? MIN_COMPACT_INTERVAL_MS,
          verification: this.segmentVerification,
        });
      });
      await recordRotation(this.paths, sealed);
      if (!sealed.report.rotated) return sealed.report;
      const compressed: number[] = [];
      for (const seq of segmentsToCompress(this.paths)) {
        if (await compressSegment(this.paths, seq, this.index, this.files, this.segmentVerification)) compressed.push(seq);
      }
      return { ...sealed.report, compressed };
    });
  }

  /**
   * Run `step` holding the maintenance lock: one step at a time moves segment files or writes the
   * manifest, across processes. Appends do not take it.
   */
  private underMaintenanceLock<T>(step: () => Promise<T>): Promise<T> {
    return this.holding(this.paths.maintenanceLock, step);
  }

  /** Run `step` holding the file lock at `path`, if the ledger is still open once it is taken. */
  private async holding<T>(path: string, step: () => T | Promise<T>): Promise<T> {
    const lock = await FileLock.acquire(path, this.opts.lockTimeoutMs ?? 30_000);
    try {
      this.ensureOpen(); // closed while we waited for the lock
      return await step();
    } finally {
      lock.release();
    }
  }

  /**
   * Run `step` holding the writer lock. This process's next batches wait for the step itself
   * (not by polling the lock): the lock is not starved by a steady stream of appends, and what
   * queued meanwhile commits as one batch the moment the step ends.
   */
  private async underWriterLock<T>(step: () => T | Promise<T>): Promise<T> {
    this.ensureOpen();
    let release!: () => void;
    this.appender.waitFor(new Promise<void>((resolve) => (release = resolve)));
    try {
      await this.appender.lockLetGo();
      return await this.holding(this.paths.lock, step);
    } finally {
      release();
    }
  }

  /** Group commit counters of this process: `batches` writes+fsyncs carried `appends` events. */
  appendStats(): { batches: number; appends: number; syncMs: number; serialMs: number; inlineSyncs: number } {
    return { ...this.appender.stats };
  }

  integrity(): IntegrityReport {
    this.refresh();
    const torn = this.files.tornTail();
    return {
      tornTail: torn ? { offset: torn.off, bytes: torn.len } : null,
      damaged: this.queries.damage().map((d) => ({ segment: d.src === 0 ? null : d.src, offset: d.off, bytes: d.len, reason: d.reason })),
      indexRebuilt: this.rebuilt,
      recoveredConsume: this.recovered,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    while (!this.appender.idle) await sleep(1);
    await this.autoCompaction;
    this.closed = true;
    this.appender.close();
    this.files.close();
    this.index.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
