import { voiceError, VoiceErrorCodes } from '../errors.js';
import { safePathComponent } from '../safe-path.js';
import { pruneSessions } from './session-update.js';
import { transcriptText } from './session-view.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MAX_TRANSCRIPT_CHARS = 8_000;
/** The bounded display window of one session in state/assistants.json. */
export const MAX_SESSION_SEGMENTS = 200;
/** Flush triggers that end a recording: the input (or an idle review) goes out at once. */
export const STOP_TRIGGER_KINDS = new Set(['push_to_talk_stop', 'service_transcript']);

export interface TranscriptAppendArgs {
  session_id: string;
  segment_id?: string;
  text?: string;
  language?: string;
  document_path?: string;
  is_final?: boolean;
  flush?: boolean;
  trigger?: Rec;
  transcript_stage?: 'live' | 'final';
  supersedes_segment_ids?: string[];
  supersede_stage?: string;
  source_model_id?: string;
  revision_only?: boolean;
}

export interface CheckedAppend {
  session_id: string;
  segment_id: string;
  text: string;
  is_final: boolean;
  flush: boolean;
  stage: 'live' | 'final';
  trigger: Rec;
}

/**
 * Checks that need no state, run before anything is touched: safe session / segment ids, text
 * unless flush, and revision metadata only on a stable final segment (`invalid_request`).
 */
export function checkTranscriptAppend(args: TranscriptAppendArgs, newSegmentId: () => string): CheckedAppend {
  const session_id = safePathComponent(args.session_id, 'session_id');
  const segment_id = args.segment_id?.trim() ? safePathComponent(args.segment_id, 'segment_id') : newSegmentId();
  const text = (args.text ?? '').trim();
  const flush = args.flush === true;
  const is_final = args.is_final !== false;
  if (!text && !flush) throw voiceError(VoiceErrorCodes.invalidRequest, 'text cannot be empty unless flush is true', { field: 'text' });
  if (text.length > MAX_TRANSCRIPT_CHARS) throw voiceError(VoiceErrorCodes.invalidRequest, `text is longer than ${MAX_TRANSCRIPT_CHARS} characters`, { field: 'text' });
  if (args.revision_only === true && !is_final) throw voiceError(VoiceErrorCodes.invalidRequest, 'revision_only is valid only for a stable final segment (is_final=true)', { field: 'revision_only' });
  if (args.supersede_stage !== undefined && args.supersede_stage !== 'live') throw voiceError(VoiceErrorCodes.invalidRequest, 'supersede_stage must be "live"', { field: 'supersede_stage' });
  if (args.supersede_stage === 'live' && !is_final) throw voiceError(VoiceErrorCodes.invalidRequest, 'supersede_stage "live" needs a stable final segment (is_final=true)', { field: 'supersede_stage' });
  for (const id of args.supersedes_segment_ids ?? []) safePathComponent(id, 'supersedes_segment_ids');
  const trigger = isRecord(args.trigger) ? args.trigger : {};
  const stage = args.transcript_stage ?? (trigger.recognition_backend === 'assistant_service_local_asr_final' ? 'final' : 'live');
  return { session_id, segment_id, text, is_final, flush, stage, trigger };
}

const sessionsOf = (doc: Rec) => (Array.isArray(doc.sessions) ? doc.sessions : []).filter(isRecord);
const liveIds = (segments: readonly Rec[]) => segments.filter((s) => s.transcript_stage !== 'final' && typeof s.segment_id === 'string').map((s) => s.segment_id as string);

/** The stored session record for `sessionId` (undefined when new). */
export function sessionOf(doc: Rec, sessionId: string): Rec | undefined {
  return sessionsOf(doc).find((s) => s.session_id === sessionId);
}

/**
 * The supersede list of a revision record: the explicit ids plus, for `supersede_stage: "live"`,
 * every live segment id currently in the session's projection.
 */
export function resolveSupersedes(session: Rec | undefined, args: Pick<TranscriptAppendArgs, 'supersedes_segment_ids' | 'supersede_stage'>): string[] {
  const out = new Set(args.supersedes_segment_ids ?? []);
  if (args.supersede_stage === 'live') for (const id of liveIds(Array.isArray(session?.segments) ? (session!.segments as Rec[]).filter(isRecord) : [])) out.add(id);
  return [...out];
}

/** A live checkpoint arriving after a final revision superseded the session's live rows: kept raw-only. */
export function isRaceLateLive(session: Rec | undefined, stage: 'live' | 'final'): boolean {
  return stage === 'live' && typeof session?.live_superseded_at === 'string';
}

export interface WindowConfig {
  auto_document_min_chars: number;
  auto_document_max_window_seconds: number;
}

export interface SessionAppendOutcome {
  doc: Rec;
  session: Rec;
  /** The window text compacted into one semantic input now (undefined: not due yet). */
  due?: { text: string; segment_ids: string[] };
}

/**
 * Pure: the assistants document with one stable segment applied to its session's bounded
 * projection. Superseded rows leave the projection (the raw sidecars keep them); a final live
 * segment joins the input window, which is due on flush, at auto_document_min_chars, or after
 * auto_document_max_window_seconds. A raw-only segment changes nothing but the timestamps.
 */
export function withTranscriptSegment(
  doc: Rec,
  segment: Rec & { segment_id: string; session_id: string; text: string },
  opts: { raw_only: boolean; window: boolean; flush: boolean; document_path?: string; config: WindowConfig },
  now: string,
): SessionAppendOutcome {
  const sessions = sessionsOf(doc);
  const old = sessions.find((s) => s.session_id === segment.session_id);
  const base: Rec = old ?? { schema: 1, session_id: segment.session_id, capture_mode: 'document', status: 'open', segments: [], created_at: now };
  let segments = (Array.isArray(base.segments) ? base.segments : []).filter(isRecord);
  let windowText = typeof base.window_text === 'string' ? base.window_text : '';
  let windowIds = (Array.isArray(base.window_segment_ids) ? base.window_segment_ids : []).filter((x): x is string => typeof x === 'string');
  let windowStarted = typeof base.window_started_at === 'string' ? base.window_started_at : '';
  const next: Rec = { ...base, updated_at: now };
  if (!opts.raw_only && segment.text) {
    const gone = new Set(Array.isArray(segment.supersedes_segment_ids) ? (segment.supersedes_segment_ids as string[]) : []);
    segments = [...segments.filter((s) => !gone.has(String(s.segment_id))), segment].slice(-MAX_SESSION_SEGMENTS);
    if (gone.size > 0) {
      windowIds = windowIds.filter((id) => !gone.has(id));
      if (segment.supersede_stage === 'live') next.live_superseded_at = now;
    }
    if (opts.window) {
      if (!windowText) windowStarted = now;
      windowText = windowText ? `${windowText}\n${segment.text}` : segment.text;
      windowIds = [...windowIds, segment.segment_id];
    }
    next.last_segment_id = segment.segment_id;
    next.segment_count = Number(base.segment_count ?? 0) + 1;
    if (typeof segment.language === 'string' && segment.language) next.language = segment.language;
  }
  if (opts.document_path) next.document_path = opts.document_path;
  next.segments = segments;
  next.transcript = transcriptText(segments);
  const age = windowStarted ? (Date.parse(now) - Date.parse(windowStarted)) / 1000 : 0;
  const dueNow = windowText.trim() !== '' && (opts.flush || windowText.length >= opts.config.auto_document_min_chars || age >= opts.config.auto_document_max_window_seconds);
  let due: SessionAppendOutcome['due'];
  if (dueNow) {
    due = { text: windowText.trim(), segment_ids: windowIds };
    windowText = '';
    windowIds = [];
    windowStarted = '';
  }
  next.window_text = windowText;
  next.window_segment_ids = windowIds;
  next.window_started_at = windowStarted;
  const list = old ? sessions.map((s) => (s === old ? next : s)) : [...sessions, next];
  return { doc: { ...doc, sessions: pruneSessions(list) }, session: next, ...(due ? { due } : {}) };
}
