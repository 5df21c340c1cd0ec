import { randomUUID } from 'node:crypto';
import { effectiveRole, foremanOf, isVisibleActor, principalOf, type GroupDoc } from '@cccc/groups';
import {
  assertVoiceWriter,
  assistantRecord,
  readAssistantsFile,
  voiceWorkflowOf,
  withAskFeedback,
  withAsksCleared,
  type AskFeedback,
  DocumentIndexStore,
  InputLog,
  inputView,
  liveDocument,
  safeDocumentPath,
  updateAssistantsFile,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  VOICE_PRINCIPAL,
  voiceError,
  VoiceErrorCodes,
  voiceSettingsOf,
  type InputRecord,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { MessagingService } from '../messaging/messaging-service.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';

export type VoiceInputDeps = Pick<StoreDeps, 'layout' | 'groups' | 'groupLocks' | 'ledgers'> & {
  readonly messaging: Pick<MessagingService, 'notify'>;
  readonly runtimes: Pick<RuntimeRegistry, 'get'>;
};

const hasVoiceActor = (group: GroupDoc) => group.actors.some((a) => a.id === VOICE_ACTOR_ID && a.internal_kind === VOICE_ASSISTANT_ID);
const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 20)}`;

export interface InstructionArgs {
  group_id: string;
  by?: string;
  document_path: string;
  request_id?: string;
  input_append_id?: string;
  instruction?: string;
  source_text?: string;
  trigger?: Record<string, unknown>;
}

/**
 * The Voice Secretary input stream of each group: inputs are durable in input_events.jsonl before
 * the targeted `system.notify` (context.kind "voice_secretary_input", with the daemon-owned
 * input_envelope) is emitted; an exact retry (same input_append_id) appends and notifies nothing new.
 */
export class VoiceInput {
  constructor(private readonly deps: VoiceInputDeps) {}

  private log(gid: string): InputLog {
    return new InputLog(this.deps.layout.home, gid);
  }

  /** assistant_voice_document_instruction: one user instruction for one active document. */
  async documentInstruction(args: InstructionArgs) {
    const gid = args.group_id;
    const group = this.deps.groups.get(gid);
    assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
    if (!voiceSettingsOf(group).enabled) throw voiceError(VoiceErrorCodes.assistantDisabled, 'Voice Secretary is disabled');
    const path = safeDocumentPath(args.document_path);
    const instruction = args.instruction?.trim() ?? '';
    const source = args.source_text?.trim() ?? '';
    if (!instruction && !source) throw voiceError(VoiceErrorCodes.invalidRequest, 'instruction or source_text must be non-empty', { field: 'instruction' });
    const index = await new DocumentIndexStore(this.deps.layout.home, gid).read();
    const document = liveDocument(index, path);
    if (document.status !== 'active') throw voiceError(VoiceErrorCodes.invalidRequest, `${path} is ${document.status}, not an active document`, { field: 'document_path' });
    const by = principalOf(args.by);
    const requestId = args.request_id?.trim() || newId('vreq');
    const appendId = args.input_append_id?.trim() || newId('vapp');

    return this.deps.groupLocks.run(gid, async () => {
      const { record, created, notifyEventId } = await this.log(gid).append({
        kind: 'voice_instruction',
        document_path: path,
        request_id: requestId,
        input_append_id: appendId,
        text: instruction || source,
        ...(instruction ? { instruction } : {}),
        ...(source ? { source_text: source } : {}),
        ...(args.trigger ? { trigger: args.trigger } : {}),
        by,
      });
      let askRequest: Record<string, unknown> | undefined;
      await updateAssistantsFile(this.deps.layout.groupDir(gid), (doc) => {
        const asks = (Array.isArray(doc.ask_requests) ? doc.ask_requests : []) as Array<Record<string, unknown>>;
        const existing = asks.find((a) => a.request_id === requestId);
        if (existing) {
          askRequest = existing;
          return doc;
        }
        askRequest = { request_id: requestId, status: 'pending', document_path: path, instruction: instruction || source, input_append_id: appendId, by, created_at: record.created_at, updated_at: record.created_at };
        return { ...doc, ask_requests: [...asks, askRequest].slice(-100) };
      });
      const delivery = notifyEventId ? { emitted: false } : await this.notify(gid, [record], index);
      return {
        group_id: gid,
        document,
        request_id: requestId,
        input_append_id: appendId,
        ...(askRequest ? { ask_request: askRequest } : {}),
        input_event: record,
        input_event_created: created,
        input_notify_emitted: delivery.emitted,
        ...(delivery.error ? { input_notify_error: delivery.error } : {}),
      };
    });
  }

  /** The targeted notify for inputs already durable in the log (the registry read for their documents). */
  async deliver(gid: string, items: InputRecord[]): Promise<{ emitted: boolean; error?: string }> {
    return this.notify(gid, items, await new DocumentIndexStore(this.deps.layout.home, gid).read());
  }

  /** The targeted notify with the input envelope; its failure leaves the input readable and is reported, not thrown. */
  private async notify(gid: string, items: InputRecord[], index: Awaited<ReturnType<DocumentIndexStore['read']>>): Promise<{ emitted: boolean; error?: string }> {
    const group = this.deps.groups.get(gid);
    if (!hasVoiceActor(group)) return { emitted: false, error: 'the voice-secretary actor does not exist (enable Voice Secretary)' };
    const docs = new Map(index.documents.map((d) => [d.document_path, d]));
    const envelope = { envelope_id: newId('venv'), input_ids: items.map((i) => i.input_id), ...inputView(items, docs) };
    try {
      const { event } = await this.deps.messaging.notify({
        group_id: gid,
        by: 'system',
        kind: 'voice_secretary_input',
        priority: 'normal',
        title: 'Voice Secretary input',
        message: 'New voice input is ready.',
        target_actor_id: VOICE_ACTOR_ID,
        context: { kind: 'voice_secretary_input', input_envelope: envelope },
      });
      for (const it of items) await this.log(gid).markNotified(it.input_id, event.id);
      return { emitted: true };
    } catch (err) {
      return { emitted: false, error: (err as Error).message };
    }
  }

  /** assistant_voice_document_input_read: every unread input since the last read; the cursor moves at once. */
  async inputRead(args: { group_id: string; by?: string }) {
    const gid = args.group_id;
    this.deps.groups.get(gid);
    const by = args.by?.trim();
    if (by && by !== VOICE_ACTOR_ID && by !== VOICE_PRINCIPAL) {
      throw voiceError(VoiceErrorCodes.permissionDenied, 'only the Voice Secretary reads its input', { by });
    }
    const items = await this.log(gid).readUnread();
    const index = await new DocumentIndexStore(this.deps.layout.home, gid).read();
    return { group_id: gid, ...inputView(items, new Map(index.documents.map((d) => [d.document_path, d]))) };
  }

  record(gid: string, stateDoc: Record<string, unknown>): Record<string, unknown> {
    const group = this.deps.groups.get(gid);
    return assistantRecord(voiceSettingsOf(group), voiceWorkflowOf(stateDoc), {
      configured: group.actors.some((a) => a.id === VOICE_ACTOR_ID),
      running: this.deps.runtimes.get(gid, VOICE_ACTOR_ID) !== undefined,
    });
  }

  /** assistant_voice_instruction_feedback: only the voice-secretary actor / principal reports on its Asks. */
  async feedback(args: { group_id: string; by?: string } & AskFeedback) {
    const gid = args.group_id;
    this.deps.groups.get(gid);
    const by = args.by?.trim() || VOICE_ACTOR_ID;
    if (by !== VOICE_ACTOR_ID && by !== VOICE_PRINCIPAL) {
      throw voiceError(VoiceErrorCodes.feedbackForbidden, 'Ask feedback can only come from voice-secretary', { by });
    }
    if (args.document_path?.trim()) safeDocumentPath(args.document_path);
    return this.deps.groupLocks.run(gid, async () => {
      let ask: Record<string, unknown> = {};
      const stateDoc = await updateAssistantsFile(this.deps.layout.groupDir(gid), (doc) => {
        const out = withAskFeedback(doc, args, new Date().toISOString());
        ask = out.ask;
        return out.doc;
      });
      const { event } = await this.deps.ledgers.append(gid, {
        kind: 'assistant.voice.request',
        by,
        data: { assistant_id: VOICE_ASSISTANT_ID, action: 'feedback', request_id: args.request_id, status: args.status, ...(typeof ask.reply_text === 'string' ? { reply_text: ask.reply_text } : {}), ...(typeof ask.document_path === 'string' ? { document_path: ask.document_path } : {}) },
      });
      return { group_id: gid, assistant: this.record(gid, stateDoc), ask_request: ask, event };
    });
  }

  /** assistant_voice_ask_requests_clear: a display operation; nothing is cancelled or removed. */
  async clearAsks(args: { group_id: string; keep_active?: boolean; by?: string }) {
    const gid = args.group_id;
    const group = this.deps.groups.get(gid);
    assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
    return this.deps.groupLocks.run(gid, async () => {
      let visible: Array<Record<string, unknown>> = [];
      let cleared = 0;
      const stateDoc = await updateAssistantsFile(this.deps.layout.groupDir(gid), (doc) => {
        const out = withAsksCleared(doc, args.keep_active === true, new Date().toISOString());
        visible = out.visible;
        cleared = out.cleared;
        return out.doc;
      });
      return {
        group_id: gid,
        assistant: this.record(gid, stateDoc),
        ask_requests: visible,
        ...(visible[0] ? { latest_ask_request: visible[0] } : {}),
        cleared_count: cleared,
        removed_count: cleared,
        kept_count: visible.length,
      };
    });
  }

  /**
   * assistant_voice_request: the secretary's handoff to @foreman or one concrete visible actor.
   * The request event is appended first, then the targeted notify that delivers it.
   */
  async actionRequest(args: {
    group_id: string;
    by?: string;
    target?: string;
    request_text: string;
    summary?: string;
    document_path?: string;
    artifact_paths?: string[];
    source_event_id?: string;
    priority?: 'low' | 'normal' | 'high' | 'urgent';
  }) {
    const gid = args.group_id;
    const group = this.deps.groups.get(gid);
    const by = args.by?.trim() || VOICE_ACTOR_ID;
    if (by !== VOICE_ACTOR_ID && by !== VOICE_PRINCIPAL) throw voiceError(VoiceErrorCodes.permissionDenied, 'only the Voice Secretary sends action requests', { by });
    const text = args.request_text.trim().slice(0, 4000);
    if (!text) throw voiceError(VoiceErrorCodes.invalidRequest, 'request_text must be non-empty', { field: 'request_text' });
    const wanted = args.target?.trim() || '@foreman';
    const actor = wanted === '@foreman' ? foremanOf(group.actors) : group.actors.find((a) => a.id === wanted && isVisibleActor(a));
    if (!actor) {
      throw voiceError(VoiceErrorCodes.invalidRequest, wanted === '@foreman' ? 'the group has no foreman' : `target must be @foreman or one actor of the group (not ${wanted})`, { field: 'target' });
    }
    const documentPath = args.document_path?.trim() ? safeDocumentPath(args.document_path) : undefined;
    const artifacts = (args.artifact_paths ?? []).map((p) => p.trim()).filter(Boolean).slice(0, 12);
    for (const p of artifacts) {
      if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.replace(/\\/g, '/').split('/').some((x) => x === '..' || x === '.')) {
        throw voiceError(VoiceErrorCodes.invalidPath, 'artifact_paths must be repository-relative', { field: 'artifact_paths', value: p });
      }
    }
    const request = {
      request_id: newId('vact'),
      target: actor.id,
      requested_target: wanted,
      request_text: text,
      ...(args.summary?.trim() ? { summary: args.summary.trim().slice(0, 1200) } : {}),
      ...(documentPath ? { document_path: documentPath } : {}),
      ...(artifacts.length ? { artifact_paths: artifacts } : {}),
      ...(args.source_event_id ? { source_event_id: args.source_event_id } : {}),
      priority: args.priority ?? 'normal',
      created_at: new Date().toISOString(),
    };
    const { event } = await this.deps.ledgers.append(gid, { kind: 'assistant.voice.request', by, data: { assistant_id: VOICE_ASSISTANT_ID, action: 'request', ...request } });
    const { event: notifyEvent } = await this.deps.messaging.notify({
      group_id: gid,
      by: 'system',
      kind: 'voice_secretary_action_request',
      priority: request.priority,
      title: 'Voice Secretary request',
      message: text,
      target_actor_id: actor.id,
      context: { kind: 'voice_secretary_action_request', request, request_event_id: event.id },
    });
    const stateDoc = await readAssistantsFile(this.deps.layout.groupDir(gid));
    return { group_id: gid, assistant: this.record(gid, stateDoc), request, notify_event: notifyEvent, event };
  }
}
