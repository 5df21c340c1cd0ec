import { voiceError, VoiceErrorCodes } from '../errors.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const clip = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** Bounded history: the newest prompt requests / drafts kept in state/assistants.json. */
export const MAX_PROMPT_RECORDS = 30;
export const MAX_DRAFT_CHARS = 20_000;
export const DEFAULT_PROMPT_OPERATION = 'append_to_composer_end';
export type DraftAckStatus = 'applied' | 'dismissed' | 'stale';

const byId = (doc: Rec, key: string): Rec => (isRecord(doc[key]) ? (doc[key] as Rec) : {});

/** Keep the newest `MAX_PROMPT_RECORDS` entries (by updated_at / created_at). */
function trim(records: Rec): Rec {
  const entries = Object.entries(records).filter(([, v]) => isRecord(v)) as Array<[string, Rec]>;
  entries.sort((a, b) => String(a[1].updated_at ?? a[1].created_at ?? '').localeCompare(String(b[1].updated_at ?? b[1].created_at ?? '')));
  return Object.fromEntries(entries.slice(-MAX_PROMPT_RECORDS));
}

export interface PromptRequestInput {
  request_id: string;
  input_append_id: string;
  voice_transcript?: string;
  composer_text?: string;
  operation?: string;
  composer_context?: Rec;
  composer_snapshot_hash?: string;
  by: string;
}

/**
 * Pure: create or update the composer refinement request `request_id` (a follow-up with a new
 * input_append_id updates the same request). No draft is created here.
 */
export function withPromptRequest(doc: Rec, input: PromptRequestInput, now: string): { doc: Rec; request: Rec } {
  const requests = byId(doc, 'voice_prompt_requests');
  const old = isRecord(requests[input.request_id]) ? (requests[input.request_id] as Rec) : undefined;
  const request: Rec = {
    ...(old ?? { request_id: input.request_id, created_at: now }),
    status: 'pending',
    operation: input.operation?.trim() || (typeof old?.operation === 'string' ? old.operation : DEFAULT_PROMPT_OPERATION),
    ...(input.voice_transcript?.trim() ? { voice_transcript: clip(input.voice_transcript, MAX_DRAFT_CHARS) } : {}),
    ...(input.composer_text !== undefined ? { composer_text: input.composer_text.slice(0, MAX_DRAFT_CHARS) } : {}),
    ...(input.composer_context ? { composer_context: input.composer_context } : {}),
    ...(input.composer_snapshot_hash?.trim() ? { composer_snapshot_hash: input.composer_snapshot_hash.trim() } : {}),
    last_input_append_id: input.input_append_id,
    by: input.by,
    updated_at: now,
  };
  return { doc: { ...doc, voice_prompt_requests: trim({ ...requests, [input.request_id]: request }) }, request };
}

export interface DraftSubmission {
  request_id: string;
  draft_text?: string;
  no_op?: boolean;
  summary?: string;
  operation?: string;
  composer_snapshot_hash?: string;
}

/** The public draft record (no empty fields). */
export function publicDraft(record: Rec): Rec {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== '' && v !== undefined && v !== null));
}

/**
 * Pure: store the secretary's result for an existing prompt request as `pending` (or `no_change`
 * with empty text for no_op), inheriting a missing operation / snapshot hash from the request.
 * `prompt_request_not_found` without that request; draft_text is required unless no_op.
 */
export function withDraftSubmitted(doc: Rec, sub: DraftSubmission, now: string): { doc: Rec; draft: Rec } {
  const requests = byId(doc, 'voice_prompt_requests');
  const request = requests[sub.request_id];
  if (!isRecord(request)) throw voiceError(VoiceErrorCodes.promptRequestNotFound, `no prompt request ${sub.request_id}`, { request_id: sub.request_id });
  const noOp = sub.no_op === true;
  const text = noOp ? '' : (sub.draft_text ?? '').slice(0, MAX_DRAFT_CHARS);
  if (!noOp && !text.trim()) throw voiceError(VoiceErrorCodes.invalidRequest, 'draft_text is required unless no_op is true', { field: 'draft_text' });
  const drafts = byId(doc, 'voice_prompt_drafts');
  const old = isRecord(drafts[sub.request_id]) ? (drafts[sub.request_id] as Rec) : undefined;
  const draft: Rec = {
    schema: 1,
    assistant_id: 'voice_secretary',
    request_id: sub.request_id,
    status: noOp ? 'no_change' : 'pending',
    operation: sub.operation?.trim() || String(request.operation ?? '') || DEFAULT_PROMPT_OPERATION,
    draft_text: text,
    draft_preview: text.trim().slice(0, 240),
    summary: clip(sub.summary, 800),
    composer_snapshot_hash: sub.composer_snapshot_hash?.trim() || String(request.composer_snapshot_hash ?? ''),
    created_at: typeof old?.created_at === 'string' ? old.created_at : now,
    updated_at: now,
    by: 'assistant:voice_secretary',
  };
  const nextRequest = { ...request, status: noOp ? 'no_change' : 'drafted', updated_at: now };
  return {
    doc: { ...doc, voice_prompt_requests: trim({ ...requests, [sub.request_id]: nextRequest }), voice_prompt_drafts: trim({ ...drafts, [sub.request_id]: draft }) },
    draft,
  };
}

/** Pure: acknowledge a submitted draft (applied / dismissed / stale); it leaves the active projection, history stays. */
export function withDraftAcked(doc: Rec, requestId: string, status: DraftAckStatus, by: string, now: string): { doc: Rec; draft: Rec } {
  const drafts = byId(doc, 'voice_prompt_drafts');
  const old = drafts[requestId];
  if (!isRecord(old)) throw voiceError(VoiceErrorCodes.promptDraftNotFound, `no prompt draft ${requestId}`, { request_id: requestId });
  const draft: Rec = { ...old, status, acked_by: by, acked_at: now, updated_at: now };
  return { doc: { ...doc, voice_prompt_drafts: trim({ ...drafts, [requestId]: draft }) }, draft };
}

/** The active prompt_draft projection: the newest `pending` draft, if any. */
export function activePromptDraft(doc: Rec): Rec | undefined {
  const pending = Object.values(byId(doc, 'voice_prompt_drafts')).filter((d): d is Rec => isRecord(d) && d.status === 'pending');
  pending.sort((a, b) => String(a.updated_at ?? '').localeCompare(String(b.updated_at ?? '')));
  return pending.length ? publicDraft(pending.at(-1)!) : undefined;
}
