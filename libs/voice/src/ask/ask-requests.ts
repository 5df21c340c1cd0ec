import { voiceError, VoiceErrorCodes } from '../errors.js';
import { safeDocumentPath } from '../safe-path.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const clip = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');
const ACTIVE = new Set(['pending', 'working']);

export type AskStatus = 'working' | 'done' | 'needs_user' | 'failed';

export interface AskFeedback {
  request_id: string;
  status: AskStatus;
  reply_text?: string;
  result_text?: string;
  message?: string;
  document_path?: string;
  artifact_paths?: string[];
  source_summary?: string;
  checked_at?: string;
  source_urls?: string[];
}

const asksOf = (doc: Rec) => (Array.isArray(doc.ask_requests) ? doc.ask_requests : []).filter(isRecord);

/**
 * Pure: record progress / the result of one Ask. Visible again (cleared_at dropped) when it
 * carries a reply or needs the user / failed, so clearing never hides an answer.
 */
export function withAskFeedback(doc: Rec, fb: AskFeedback, now: string): { doc: Rec; ask: Rec } {
  const asks = asksOf(doc);
  const i = asks.findIndex((a) => a.request_id === fb.request_id);
  if (i < 0) throw voiceError(VoiceErrorCodes.askRequestNotFound, `no Ask request ${fb.request_id}`, { request_id: fb.request_id });
  const docPath = fb.document_path?.trim() ? safeDocumentPath(fb.document_path) : undefined;
  const reply = clip(fb.reply_text ?? fb.result_text ?? fb.message, 4000);
  const ask: Rec = { ...asks[i]!, status: fb.status, updated_at: now, last_feedback_at: now };
  if (!ask.first_feedback_at) ask.first_feedback_at = now;
  if (fb.reply_text !== undefined || fb.result_text !== undefined || fb.message !== undefined) ask.reply_text = reply;
  if (docPath) ask.document_path = docPath;
  if (fb.artifact_paths !== undefined || docPath) {
    const paths = (fb.artifact_paths ?? []).map((p) => clip(p, 512)).filter(Boolean).slice(0, 12);
    if (docPath && !paths.includes(docPath)) paths.push(docPath);
    ask.artifact_paths = paths;
  }
  if (fb.source_summary !== undefined) ask.source_summary = clip(fb.source_summary, 1200);
  if (fb.checked_at !== undefined) ask.checked_at = clip(fb.checked_at, 120);
  if (fb.source_urls !== undefined) ask.source_urls = fb.source_urls.map((u) => clip(u, 1024)).filter(Boolean).slice(0, 12);
  if (reply || fb.status === 'needs_user' || fb.status === 'failed') delete ask.cleared_at;
  const rest = asks.filter((_, k) => k !== i);
  return { doc: { ...doc, ask_requests: [ask, ...rest] }, ask };
}

/** Pure: hide Ask history (keep_active keeps pending / working visible); entries stay for later feedback. */
export function withAsksCleared(doc: Rec, keepActive: boolean, now: string): { doc: Rec; visible: Rec[]; cleared: number } {
  let cleared = 0;
  const asks = asksOf(doc).map((a) => {
    if ((keepActive && ACTIVE.has(String(a.status))) || a.cleared_at) return a;
    cleared++;
    return { ...a, cleared_at: now, updated_at: now };
  });
  return { doc: { ...doc, ask_requests: asks }, visible: asks.filter((a) => !a.cleared_at), cleared };
}
