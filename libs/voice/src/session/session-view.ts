import { safePathComponent } from '../safe-path.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const norm = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** Semantic inputs that are never meeting transcript (prompt refinement, composer, instructions). */
const NON_TRANSCRIPT = new Set(['prompt', 'prompt_refine', 'composer_prompt_refine', 'instruction', 'voice_instruction', 'user_instruction', 'composer']);
const INTERNAL_SESSIONS = new Set(['voice-secretary-prompt-refine', 'voice-secretary-user-instruction']);

/** A segment of meeting transcript: non-empty text and no prompt / composer / instruction marker. */
export function isDocumentTranscriptSegment(segment: Rec): boolean {
  if (!str(segment.text)) return false;
  const trigger = isRecord(segment.trigger) ? segment.trigger : {};
  const marks = [segment.kind, segment.input_kind, segment.capture_mode, trigger.kind, trigger.input_kind, trigger.capture_mode, trigger.mode, trigger.trigger_kind, trigger.source, trigger.dispatch_target, trigger.target_kind];
  return !marks.some((m) => NON_TRANSCRIPT.has(norm(m)));
}

/** Segment ids a later record superseded (revision records): the projection omits them. */
function supersededIds(segments: readonly Rec[]): Set<string> {
  const out = new Set<string>();
  for (const s of segments) for (const id of Array.isArray(s.supersedes_segment_ids) ? s.supersedes_segment_ids : []) if (typeof id === 'string') out.add(id);
  return out;
}

/** The transcript text of a projection: final rows (is_final defaults to true) joined by lines. */
export function transcriptText(segments: readonly Rec[]): string {
  return segments
    .filter((s) => s.is_final !== false)
    .map((s) => str(s.text))
    .filter(Boolean)
    .join('\n');
}

/**
 * One stored session as the Web meeting view sees it, or undefined when it is not a
 * document-capture session (or not for `requestedPath`). Superseded live rows and non-transcript
 * inputs are left out; the stored record is not changed.
 */
export function documentSessionView(session: Rec, requestedPath = ''): Rec | undefined {
  const mode = norm(session.capture_mode);
  if (mode && mode !== 'document') return undefined;
  const id = str(session.session_id);
  try {
    if (!id) return undefined;
    safePathComponent(id);
  } catch {
    return undefined;
  }
  if (!mode && (id.startsWith('input-') || INTERNAL_SESSIONS.has(id))) return undefined;
  const raw = (Array.isArray(session.segments) ? session.segments : Array.isArray(session.window_segments) ? session.window_segments : []).filter(isRecord);
  const gone = supersededIds(raw);
  let segments = raw.filter((s) => isDocumentTranscriptSegment(s) && !gone.has(str(s.segment_id)));
  let path = str(session.document_path) || segments.map((s) => str(s.document_path)).find(Boolean) || '';
  const wanted = requestedPath.trim();
  if (wanted) {
    segments = segments.filter((s) => {
      const p = str(s.document_path);
      return p ? p === wanted : !path || path === wanted;
    });
    if (path !== wanted && segments.length === 0) return undefined;
    path = wanted;
  }
  if (!mode && segments.length === 0) return undefined;
  return { ...session, capture_mode: 'document', document_path: path, segments, transcript: transcriptText(segments) };
}

/**
 * assistant_state view="voice_session" over the bounded `sessions` of state/assistants.json:
 * by `session_id`, else the latest document-capture session (for `document_path` when given).
 * `{}` when there is none.
 */
export function voiceSessionView(sessions: readonly unknown[], query: { session_id?: string; document_path?: string }): Rec {
  const list = sessions.filter(isRecord);
  const path = query.document_path ?? '';
  if (query.session_id?.trim()) {
    const hit = list.find((s) => s.session_id === query.session_id!.trim());
    return (hit && documentSessionView(hit, path)) ?? {};
  }
  for (let i = list.length - 1; i >= 0; i--) {
    const view = documentSessionView(list[i]!, path);
    if (view) return view;
  }
  return {};
}
