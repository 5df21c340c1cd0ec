import type { OutputRing, RingPage } from '../ring/output-ring.js';
import { renderBytes, type RenderSize } from './headless-render.js';
import { compactLines, keepLastChars, trimTrailingBlank } from './text-shaping.js';
import { skipContinuation } from '../ring/utf8.js';

// Domain versions of the §8.11 diagnostics ops. Results use the wire field names so the daemon
// handler only adds group_id/actor_id and maps errors; nothing here knows about sockets.

/** What the ops read: a session's ring and its current terminal size. */
export interface TerminalSource extends RenderSize {
  readonly ring: OutputRing;
}

export const DEFAULT_TAIL_MAX_CHARS = 8000;
export const DEFAULT_PAGE_LIMIT_BYTES = 512 * 1024;
export const DEFAULT_SNAPSHOT_LIMIT_BYTES = 512 * 1024;
export const HISTORY_RANGE_CAP_BYTES = 50 * 1000 * 1000;
const MAX_TAIL_SCROLLBACK = 50_000;

export interface HistoryPage {
  data: string;
  start_cursor: number;
  end_cursor: number;
  has_more: boolean;
  cursor_expired: boolean;
}

function toHistory(page: RingPage): HistoryPage {
  return {
    data: page.data.toString('utf8'),
    start_cursor: page.start,
    end_cursor: page.end,
    has_more: page.hasMore,
    cursor_expired: page.cursorExpired,
  };
}

function notes(ring: OutputRing): { warning: string; hint: string } {
  return {
    warning: ring.startCursor > 0 ? `output before cursor ${ring.startCursor} is no longer retained` : '',
    hint: 'rendered from the raw PTY backlog; attach with since=end_cursor to follow live output',
  };
}

function shape(lines: string[], compact: boolean): string {
  return (compact ? compactLines(lines) : trimTrailingBlank(lines)).join('\n');
}

export interface TailOptions {
  readonly maxChars?: number;
  readonly stripAnsi?: boolean;
  readonly compact?: boolean;
}

export interface TailResult {
  text: string;
  end_cursor: number;
  warning: string;
  hint: string;
}

/**
 * terminal_tail: render the whole retained backlog, then keep the last `max_chars` characters.
 * Defaults suit agents reading a peer's screen: plain, compact text.
 */
export async function terminalTail(source: TerminalSource, options: TailOptions = {}): Promise<TailResult> {
  const maxChars = Math.max(0, Math.floor(options.maxChars ?? DEFAULT_TAIL_MAX_CHARS));
  const stripAnsi = options.stripAnsi ?? true;
  const compact = options.compact ?? true;
  const { ring } = source;
  const end = ring.completeEnd();
  const bytes = ring.slice(ring.startCursor, end);
  // Each kept line costs at least one character, so more scrollback than max_chars is waste.
  const scrollback = Math.min(MAX_TAIL_SCROLLBACK, Math.max(source.rows, maxChars));
  using screen = await renderBytes(bytes, { cols: source.cols, rows: source.rows, scrollback });
  const text = stripAnsi ? shape(screen.plainTailLines(maxChars), compact) : screen.serialize();
  return { text: keepLastChars(text, maxChars, !stripAnsi), end_cursor: end, ...notes(ring) };
}

/** The most output `terminalScreenText` renders: many full redraws of a TUI, at a bounded cost. */
export const SCREEN_TEXT_LIMIT_BYTES = 256 * 1024;

/**
 * The visible screen only (no scrollback) as plain text, one logical line each: what a person
 * at the terminal sees now, whichever way the app drew it (a TUI that rewrites only the cells
 * that changed shows whole lines here, never in its byte stream). Rendered from the last
 * `limitBytes` of output: what was drawn before that and never redrawn since is missing.
 */
export async function terminalScreenText(source: TerminalSource, limitBytes = SCREEN_TEXT_LIMIT_BYTES): Promise<string> {
  const { ring } = source;
  const end = ring.completeEnd();
  const from = Math.max(ring.startCursor, end - Math.max(1, Math.floor(limitBytes)));
  const start = skipContinuation((c) => ring.slice(c, c + 1)[0]!, from, end);
  using screen = await renderBytes(ring.slice(start, end), { cols: source.cols, rows: source.rows, scrollback: 0 });
  return screen.plainLines().join('\n');
}

export interface SnapshotResult {
  data: string;
  start_cursor: number;
  end_cursor: number;
}

/** terminal_snapshot: an ANSI screen (with scrollback) bounded to `limit_bytes`, whole lines. */
export async function terminalSnapshot(source: TerminalSource, options: { limitBytes?: number } = {}): Promise<SnapshotResult> {
  const limit = Math.max(1, Math.floor(options.limitBytes ?? DEFAULT_SNAPSHOT_LIMIT_BYTES));
  const { ring } = source;
  const start = ring.startCursor;
  const end = ring.completeEnd();
  using screen = await renderBytes(ring.slice(start, end), { cols: source.cols, rows: source.rows, scrollback: 10_000 });
  let data = screen.serialize();
  if (Buffer.byteLength(data) > limit) data = keepLastBytesAtLine(data, limit);
  return { data, start_cursor: start, end_cursor: end };
}

function keepLastBytesAtLine(text: string, limit: number): string {
  const buf = Buffer.from(text);
  let from = buf.byteLength - limit;
  const nl = buf.indexOf(0x0a, from);
  from = nl < 0 ? buf.byteLength : nl + 1;
  return buf.subarray(from).toString('utf8');
}

export interface AttachSnapshot {
  /** ANSI that rebuilds the screen at cols×rows; sent before the raw stream (snapshot_v1). */
  readonly data: string;
  readonly bytes: number;
  /** Raw cursor where the live stream continues; replay_cursor = replay_end_cursor = cursor. */
  readonly cursor: number;
  readonly cols: number;
  readonly rows: number;
}

/** The term_attach `bootstrap: "snapshot_v1"` payload, captured at one ring position. */
export async function renderAttachSnapshot(source: TerminalSource, scrollbackRows = 1000): Promise<AttachSnapshot> {
  const { ring } = source;
  const cursor = ring.completeEnd();
  using screen = await renderBytes(ring.slice(ring.startCursor, cursor), {
    cols: source.cols,
    rows: source.rows,
    scrollback: scrollbackRows,
  });
  const data = screen.serialize(scrollbackRows);
  return { data, bytes: Buffer.byteLength(data), cursor, cols: source.cols, rows: source.rows };
}

export interface ReplayOptions {
  readonly after?: number;
  /** The replay_end_cursor returned by the first page; omit on the first request. */
  readonly endCursor?: number;
  readonly limitBytes?: number;
}

export interface ReplayResult {
  replay_end_cursor: number;
  history: HistoryPage;
}

/** terminal_replay: raw pages up to an end fixed by the first request. */
export function terminalReplay(source: TerminalSource, options: ReplayOptions = {}): ReplayResult {
  const { ring } = source;
  const replayEnd = options.endCursor ?? ring.completeEnd();
  const page = ring.read(options.after ?? ring.startCursor, {
    limitBytes: options.limitBytes ?? DEFAULT_PAGE_LIMIT_BYTES,
    end: replayEnd,
  });
  return { replay_end_cursor: replayEnd, history: toHistory(page) };
}

/** terminal_since: the next raw page after `after`, up to the live UTF-8-complete end. */
export function terminalSince(source: TerminalSource, options: { after: number; limitBytes?: number }): { history: HistoryPage } {
  const page = source.ring.read(options.after, { limitBytes: options.limitBytes ?? DEFAULT_PAGE_LIMIT_BYTES });
  return { history: toHistory(page) };
}

export interface HistoryOptions {
  readonly before?: number;
  /** Pinned end of the first response; the page then renders [start, render_before). */
  readonly renderBefore?: number;
  readonly limitBytes?: number;
  readonly stripAnsi?: boolean;
  readonly compact?: boolean;
}

export interface HistoryResult {
  text: string;
  start_cursor: number;
  end_cursor: number;
  has_more: boolean;
  cursor_expired: boolean;
  warning: string;
  hint: string;
}

/**
 * terminal_history: backward paging over rendered text. With `render_before` the older page's
 * start extends a pinned range that is rendered once (clients replace, not concatenate).
 */
export async function terminalHistory(source: TerminalSource, options: HistoryOptions = {}): Promise<HistoryResult> {
  const { ring } = source;
  const limit = Math.max(1, Math.floor(options.limitBytes ?? DEFAULT_PAGE_LIMIT_BYTES));
  const liveEnd = ring.completeEnd();
  const pinned = options.renderBefore === undefined ? undefined : Math.min(options.renderBefore, liveEnd);
  const pageEnd = Math.min(options.before ?? pinned ?? liveEnd, liveEnd);
  const end = pinned ?? pageEnd;
  const expiredAt = (at: number): HistoryResult => ({
    text: '',
    start_cursor: at,
    end_cursor: at,
    has_more: false,
    cursor_expired: true,
    ...notes(ring),
  });
  // Retention or terminal_clear overtook the range the client is paging through.
  if (pinned !== undefined && (pinned < ring.startCursor || pageEnd < ring.startCursor)) return expiredAt(pinned);
  if (pinned === undefined && pageEnd < ring.startCursor) return expiredAt(ring.startCursor);
  let start = Math.max(ring.startCursor, pageEnd - limit, end - HISTORY_RANGE_CAP_BYTES);
  const byteAt = (c: number) => ring.slice(c, c + 1)[0]!;
  start = skipContinuation(byteAt, start, end);
  const stripAnsi = options.stripAnsi ?? true;
  const bytes = ring.slice(start, end);
  // Every line of the range is wanted; a line costs at least two bytes (\r\n). The bound keeps
  // a pathological range from allocating gigabytes of xterm rows.
  const scrollback = Math.min(50_000, Math.max(source.rows, Math.ceil(bytes.byteLength / 2)));
  using screen = await renderBytes(bytes, { cols: source.cols, rows: source.rows, scrollback });
  const text = stripAnsi ? shape(screen.plainLines(), options.compact ?? false) : screen.serialize();
  return {
    text,
    start_cursor: start,
    end_cursor: end,
    has_more: start > ring.startCursor && end - start < HISTORY_RANGE_CAP_BYTES,
    cursor_expired: false,
    ...notes(ring),
  };
}

/** terminal_clear: forget retained output (cursors keep counting). */
export function terminalClear(source: TerminalSource): { cleared: true } {
  source.ring.clear();
  return { cleared: true };
}
