import { voiceError, VoiceErrorCodes } from '../errors.js';
import { safeDocumentPath, safePathComponent } from '../safe-path.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MAX_SESSION_RECORDS = 50;
export type CompletionEvent = 'diarization_ready' | 'diarization_failed';

export interface SessionPatch {
  status?: string;
  document_path?: string;
  audio_duration_ms?: number;
  diarization_ready?: boolean;
  diarization_artifact_path?: string;
  diarization?: Rec;
  diarization_error?: Rec;
  error?: Rec | null;
  latest_partial?: string;
}

/**
 * Checks that need no state (run before anything is touched): one safe session id, a safe
 * document path, and a completion that matches its patch (status closed, diarization_ready = outcome).
 */
export function validateSessionUpdate(sessionId: string, patch: SessionPatch, completion?: CompletionEvent): string {
  const id = safePathComponent(sessionId, 'session_id');
  if (patch.document_path !== undefined) safeDocumentPath(patch.document_path);
  if (completion) {
    if (patch.status !== 'closed') throw voiceError(VoiceErrorCodes.invalidRequest, 'a completion needs patch.status "closed"', { field: 'patch.status' });
    if (patch.diarization_ready !== (completion === 'diarization_ready')) {
      throw voiceError(VoiceErrorCodes.invalidRequest, `patch.diarization_ready must be ${completion === 'diarization_ready'} for ${completion}`, { field: 'patch.diarization_ready' });
    }
  }
  return id;
}

/** Keep the newest MAX_SESSION_RECORDS sessions (by updated_at / created_at, then id). */
export function pruneSessions(sessions: Rec[]): Rec[] {
  if (sessions.length <= MAX_SESSION_RECORDS) return sessions;
  const order = (s: Rec) => String(s.updated_at || s.created_at || '');
  const ranked = [...sessions].sort((a, b) => order(b).localeCompare(order(a)) || String(b.session_id).localeCompare(String(a.session_id)));
  const keep = new Set(ranked.slice(0, MAX_SESSION_RECORDS));
  return sessions.filter((s) => keep.has(s));
}

/** Pure: the assistants document with one session's projection patched (created when new). */
export function withSessionPatch(doc: Rec, sessionId: string, patch: SessionPatch, now: string): { doc: Rec; session: Rec } {
  const sessions = (Array.isArray(doc.sessions) ? doc.sessions : []).filter(isRecord);
  const i = sessions.findIndex((s) => s.session_id === sessionId);
  const base: Rec = i >= 0 ? sessions[i]! : { session_id: sessionId, capture_mode: 'document', segments: [], created_at: now };
  const next: Rec = { ...base, ...patch, updated_at: now };
  if (patch.error === null) delete next.error;
  if (patch.document_path !== undefined) next.document_path = safeDocumentPath(patch.document_path);
  const list = i >= 0 ? sessions.map((s, k) => (k === i ? next : s)) : [...sessions, next];
  return { doc: { ...doc, sessions: pruneSessions(list) }, session: next };
}

/** The id of the completion event already recorded for this session and outcome, if any. */
export function recordedCompletion(session: Rec, completion: CompletionEvent): string | undefined {
  const done = isRecord(session.completion_events) ? session.completion_events : {};
  return typeof done[completion] === 'string' ? (done[completion] as string) : undefined;
}

/** Pure: remember a completion's event id on its session (at most one event per session and outcome). */
export function withCompletion(doc: Rec, sessionId: string, completion: CompletionEvent, eventId: string): Rec {
  const sessions = (Array.isArray(doc.sessions) ? doc.sessions : []).filter(isRecord);
  return {
    ...doc,
    sessions: sessions.map((s) => (s.session_id === sessionId ? { ...s, completion_events: { ...(isRecord(s.completion_events) ? s.completion_events : {}), [completion]: eventId } } : s)),
  };
}

/**
 * Pure: clear the display transcript of the chosen session (by id, else the latest one for the
 * document path). Raw sidecars are not touched here. Answers the session id it cleared, if any.
 */
export function withClearedTranscript(doc: Rec, query: { session_id?: string; document_path?: string }, now: string): { doc: Rec; session_id?: string; cleared: boolean } {
  const sessions = (Array.isArray(doc.sessions) ? doc.sessions : []).filter(isRecord);
  let i = -1;
  if (query.session_id) i = sessions.findIndex((s) => s.session_id === query.session_id);
  else {
    for (let k = sessions.length - 1; k >= 0; k--) {
      const s = sessions[k]!;
      if (!query.document_path || s.document_path === query.document_path) {
        i = k;
        break;
      }
    }
  }
  if (i < 0) return { doc, cleared: false };
  const s = sessions[i]!;
  const had = (Array.isArray(s.segments) && s.segments.length > 0) || (Array.isArray(s.window_segments) && s.window_segments.length > 0) || !!s.transcript;
  const next: Rec = { ...s, segments: [], transcript: '', updated_at: now };
  delete next.window_segments;
  return { doc: { ...doc, sessions: sessions.map((x, k) => (k === i ? next : x)) }, session_id: String(s.session_id), cleared: had };
}
