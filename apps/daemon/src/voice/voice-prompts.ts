import { randomUUID } from 'node:crypto';
import { effectiveRole, principalOf, type GroupDoc } from '@cccc/groups';
import {
  assertVoiceWriter,
  InputLog,
  publicDraft,
  updateAssistantsFile,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  VOICE_PRINCIPAL,
  voiceError,
  VoiceErrorCodes,
  voiceSettingsOf,
  withDraftAcked,
  withDraftSubmitted,
  withPromptRequest,
  type DraftAckStatus,
  type DraftSubmission,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { VoiceInput } from './voice-input.js';

export type VoicePromptsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'> & {
  readonly voiceInput: Pick<VoiceInput, 'deliver' | 'record'>;
};

type Rec = Record<string, unknown>;
const hasVoiceActor = (group: GroupDoc) => group.actors.some((a) => a.id === VOICE_ACTOR_ID && a.internal_kind === VOICE_ASSISTANT_ID);
const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const trimmed = (v: string | undefined) => v?.trim() ?? '';

export interface InputAppendArgs {
  group_id: string;
  by?: string;
  kind: 'voice_instruction' | 'prompt_refine';
  request_id?: string;
  input_append_id?: string;
  instruction?: string;
  text?: string;
  source_text?: string;
  voice_transcript?: string;
  composer_text?: string;
  operation?: string;
  composer_context?: Rec;
  composer_snapshot_hash?: string;
}

/**
 * assistant_voice_input_append (§8.3): a general Ask (voice_instruction) or a composer refinement
 * request (prompt_refine), persisted with its semantic input before one targeted
 * voice_secretary_input notify. An exact retry (same input_append_id) appends, records and
 * notifies nothing new; no prompt draft is created here.
 */
export async function appendVoiceInput(deps: VoicePromptsDeps, args: InputAppendArgs) {
  const gid = args.group_id;
  const group = deps.groups.get(gid);
  assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
  if (!voiceSettingsOf(group).enabled) throw voiceError(VoiceErrorCodes.assistantDisabled, 'Voice Secretary is disabled');
  const instruction = trimmed(args.instruction) || trimmed(args.text);
  const source = trimmed(args.source_text);
  const transcript = trimmed(args.voice_transcript);
  const composer = trimmed(args.composer_text);
  if (args.kind === 'voice_instruction' && !instruction && !source) {
    throw voiceError(VoiceErrorCodes.invalidRequest, 'a voice_instruction needs instruction/text or source_text', { field: 'instruction' });
  }
  if (args.kind === 'prompt_refine' && !transcript && !composer) {
    throw voiceError(VoiceErrorCodes.invalidRequest, 'a prompt_refine needs voice_transcript or composer_text', { field: 'voice_transcript' });
  }
  const by = principalOf(args.by);
  const requestId = trimmed(args.request_id).slice(0, 256) || newId(args.kind === 'prompt_refine' ? 'vprm' : 'vreq');
  const appendId = trimmed(args.input_append_id).slice(0, 256) || newId('vapp');
  const text = args.kind === 'prompt_refine' ? [transcript && `Voice: ${transcript}`, composer && `Composer: ${composer}`].filter(Boolean).join('\n') : instruction || source;

  return deps.groupLocks.run(gid, async () => {
    const log = new InputLog(deps.layout.home, gid);
    const { record, created, notifyEventId } = await log.append({
      kind: args.kind,
      request_id: requestId,
      input_append_id: appendId,
      text,
      ...(instruction ? { instruction } : {}),
      ...(source ? { source_text: source } : {}),
      ...(args.kind === 'prompt_refine' ? { trigger: { operation: args.operation ?? 'append_to_composer_end', ...(args.composer_snapshot_hash ? { composer_snapshot_hash: args.composer_snapshot_hash } : {}) } } : {}),
      by,
    });
    let promptRequest: Rec | undefined;
    let askRequest: Rec | undefined;
    const stateDoc = await updateAssistantsFile(deps.layout.groupDir(gid), (doc) => {
      if (args.kind === 'prompt_refine') {
        const requests = (doc.voice_prompt_requests ?? {}) as Rec;
        if (!created && requests[requestId]) {
          promptRequest = requests[requestId] as Rec;
          return doc;
        }
        const out = withPromptRequest(doc, { request_id: requestId, input_append_id: appendId, voice_transcript: transcript, composer_text: args.composer_text, operation: args.operation, composer_context: args.composer_context, composer_snapshot_hash: args.composer_snapshot_hash, by }, record.created_at);
        promptRequest = out.request;
        return out.doc;
      }
      const asks = (Array.isArray(doc.ask_requests) ? doc.ask_requests : []) as Rec[];
      askRequest = asks.find((a) => a.request_id === requestId);
      if (askRequest) return doc;
      askRequest = { request_id: requestId, status: 'pending', instruction: instruction || source, input_append_id: appendId, by, created_at: record.created_at, updated_at: record.created_at };
      return { ...doc, ask_requests: [...asks, askRequest].slice(-100) };
    });
    const delivery = notifyEventId ? { emitted: false } : await deps.voiceInput.deliver(gid, [record]);
    return {
      group_id: gid,
      assistant: deps.voiceInput.record(gid, stateDoc),
      request_id: requestId,
      input_append_id: appendId,
      ...(promptRequest ? { prompt_request: promptRequest } : {}),
      ...(askRequest ? { ask_request: askRequest } : {}),
      input_event: record as unknown as Rec,
      input_event_created: created,
      input_notify_emitted: delivery.emitted,
      ...(delivery.error ? { input_notify_error: delivery.error } : {}),
    };
  });
}

/**
 * assistant_voice_prompt_draft_submit: the secretary's result for an existing refinement request,
 * stored pending (no_op: no_change) with an assistant.voice.prompt_draft event. It appends no
 * input and emits no voice_secretary_input notify.
 */
export async function submitPromptDraft(deps: VoicePromptsDeps, args: { group_id: string; by?: string } & DraftSubmission) {
  const gid = args.group_id;
  deps.groups.get(gid);
  const by = trimmed(args.by) || VOICE_ACTOR_ID;
  if (by !== VOICE_ACTOR_ID && by !== VOICE_PRINCIPAL) throw voiceError(VoiceErrorCodes.promptDraftForbidden, 'prompt drafts can only be submitted by voice-secretary', { by });
  if (!voiceSettingsOf(deps.groups.get(gid)).enabled) throw voiceError(VoiceErrorCodes.assistantDisabled, 'Voice Secretary is disabled');
  if (args.no_op !== true && !trimmed(args.draft_text)) throw voiceError(VoiceErrorCodes.invalidRequest, 'draft_text is required unless no_op is true', { field: 'draft_text' });
  return deps.groupLocks.run(gid, async () => {
    let draft: Rec = {};
    const stateDoc = await updateAssistantsFile(deps.layout.groupDir(gid), (doc) => {
      const out = withDraftSubmitted(doc, args, new Date().toISOString());
      draft = out.draft;
      return out.doc;
    });
    const { event } = await deps.ledgers.append(gid, {
      kind: 'assistant.voice.prompt_draft',
      by: VOICE_PRINCIPAL,
      data: { assistant_id: VOICE_ASSISTANT_ID, request_id: args.request_id, action: args.no_op === true ? 'no_op' : 'submit', status: String(draft.status), draft_preview: String(draft.draft_preview ?? '') },
    });
    return { group_id: gid, assistant: deps.voiceInput.record(gid, stateDoc), prompt_draft: publicDraft(draft), event };
  });
}

/** assistant_voice_prompt_draft_ack: applied / dismissed / stale; the draft leaves the active projection, history stays. */
export async function ackPromptDraft(deps: VoicePromptsDeps, args: { group_id: string; by?: string; request_id: string; status: DraftAckStatus }) {
  const gid = args.group_id;
  const group = deps.groups.get(gid);
  assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
  const by = principalOf(args.by);
  return deps.groupLocks.run(gid, async () => {
    let draft: Rec = {};
    const stateDoc = await updateAssistantsFile(deps.layout.groupDir(gid), (doc) => {
      const out = withDraftAcked(doc, args.request_id, args.status, by, new Date().toISOString());
      draft = out.draft;
      return out.doc;
    });
    const { event } = await deps.ledgers.append(gid, {
      kind: 'assistant.voice.prompt_draft',
      by,
      data: { assistant_id: VOICE_ASSISTANT_ID, request_id: args.request_id, action: 'ack', status: args.status, draft_preview: String(draft.draft_preview ?? '') },
    });
    return { group_id: gid, assistant: deps.voiceInput.record(gid, stateDoc), prompt_draft: publicDraft(draft), event };
  });
}
