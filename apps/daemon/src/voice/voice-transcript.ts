import { randomUUID } from 'node:crypto';
import { effectiveRole, principalOf, type GroupDoc } from '@cccc/groups';
import {
  appendSegmentOnce,
  assertVoiceWriter,
  checkTranscriptAppend,
  documentTranscriptPath,
  idleReviewText,
  InputLog,
  isRaceLateLive,
  resolveSupersedes,
  sessionOf,
  sessionSegmentsPath,
  STOP_TRIGGER_KINDS,
  readAssistantsFile,
  safeDocumentPath,
  updateAssistantsFile,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  voiceError,
  VoiceErrorCodes,
  voiceSettingsOf,
  withTranscriptSegment,
  type IdleReviewReason,
  type InputRecord,
  type TranscriptAppendArgs,
  type VoiceDocument,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';
import type { VoiceDocuments } from './voice-documents.js';
import type { VoiceInput } from './voice-input.js';

export type VoiceTranscriptDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'> & {
  readonly voiceDocuments: Pick<VoiceDocuments, 'ensureTarget'>;
  readonly voiceInput: Pick<VoiceInput, 'deliver' | 'record'>;
};

type Rec = Record<string, unknown>;
const hasVoiceActor = (group: GroupDoc) => group.actors.some((a) => a.id === VOICE_ACTOR_ID && a.internal_kind === VOICE_ASSISTANT_ID);
const brief = (d: VoiceDocument) => ({ document_id: d.document_id, document_path: d.document_path, title: d.title, status: d.status });

/**
 * assistant_voice_transcript_append (§8.3): one stable segment into the session sidecar, the
 * bounded session projection (state/assistants.json) and the document transcript sidecar; the
 * compacted window becomes one semantic input for the working document, durable before the
 * targeted notify. Everything is idempotent on session_id + segment_id; a retry completes only
 * a missing delivery.
 */
export async function appendVoiceTranscript(deps: VoiceTranscriptDeps, args: { group_id: string; by?: string } & TranscriptAppendArgs) {
  const gid = args.group_id;
  const group = deps.groups.get(gid);
  assertVoiceWriter(args.by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));
  const settings = voiceSettingsOf(group);
  if (!settings.enabled) throw voiceError(VoiceErrorCodes.assistantDisabled, 'Voice Secretary is disabled');
  const checked = checkTranscriptAppend(args, () => `seg-${randomUUID().replace(/-/g, '')}`);
  const requested = args.document_path?.trim() || (typeof checked.trigger.document_path === 'string' ? checked.trigger.document_path : '');
  const requestedPath = requested ? safeDocumentPath(requested) : undefined;
  const by = principalOf(args.by);
  const home = deps.layout.home;
  const log = new InputLog(home, gid);
  const { session_id: sid, segment_id: segId } = checked;
  const appendId = `asr:${sid}:${segId}`;

  return deps.groupLocks.run(gid, async () => {
    const stateDoc = await readAssistantsFile(deps.layout.groupDir(gid));
    const session = sessionOf(stateDoc, sid);
    const segmentPath = sessionSegmentsPath(home, gid, sid);
    const rawOnly = isRaceLateLive(session, checked.stage);
    const hasWindow = typeof session?.window_text === 'string' && session.window_text.trim() !== '';
    const needsDocument = (checked.text !== '' && checked.is_final && !rawOnly) || (checked.flush && hasWindow);
    const sessionPath = typeof session?.document_path === 'string' && session.document_path ? session.document_path : undefined;
    // The Markdown target is validated or created before any transcript state commits.
    const target = needsDocument ? await deps.voiceDocuments.ensureTarget(gid, requestedPath ?? sessionPath, by) : undefined;
    const document = target?.document;
    const now = new Date().toISOString();

    let segment: Rec | undefined;
    let retry = false;
    let due: { text: string; segment_ids: string[] } | undefined;
    if (checked.text) {
      const supersedes = resolveSupersedes(session, args);
      const row: Rec & { segment_id: string; session_id: string; text: string } = {
        schema: 1,
        segment_id: segId,
        session_id: sid,
        group_id: gid,
        assistant_id: VOICE_ASSISTANT_ID,
        text: checked.text,
        ...(args.language?.trim() || typeof checked.trigger.language === 'string' ? { language: args.language?.trim() || String(checked.trigger.language) } : {}),
        is_final: checked.is_final,
        transcript_stage: checked.stage,
        ...(supersedes.length ? { supersedes_segment_ids: supersedes } : {}),
        ...(args.supersede_stage ? { supersede_stage: args.supersede_stage } : {}),
        ...(args.source_model_id?.trim() ? { source_model_id: args.source_model_id.trim() } : {}),
        ...(args.revision_only === true ? { revision_only: true } : {}),
        ...(rawOnly ? { raw_only: true } : {}),
        ...(document ? { document_id: document.document_id, document_path: document.document_path } : {}),
        trigger: checked.trigger,
        by,
        created_at: now,
      };
      const raw = await appendSegmentOnce(segmentPath, row);
      segment = raw.row;
      retry = !raw.created;
    }
    if (!retry) {
      // A revision record and a race-late live checkpoint never join the input window.
      const window = checked.is_final && !rawOnly && args.revision_only !== true && supersedesNone(segment);
      await updateAssistantsFile(deps.layout.groupDir(gid), (doc) => {
        const r = withTranscriptSegment(doc, (segment ?? { segment_id: segId, session_id: sid, text: '' }) as Rec & { segment_id: string; session_id: string; text: string }, {
          raw_only: rawOnly || !segment,
          window: window && !!segment,
          flush: checked.flush,
          document_path: document?.document_path,
          config: settings.config,
        }, now);
        due = r.due;
        return r.doc;
      });
    }
    if (document && segment && checked.is_final && !rawOnly) {
      await appendSegmentOnce(documentTranscriptPath(home, gid, document.document_id), { ...segment, segment_id: segId } as Rec & { segment_id: string });
    }

    // The semantic input: the due window, a revision's reuse of the session's ASR input, or a retry's canonical record.
    const auto = settings.config.auto_document_enabled;
    let input: { record: InputRecord; created: boolean; notifyEventId?: string } | undefined;
    const base = (text: string, ids: string[]) => ({
      kind: 'asr_transcript',
      document_path: document!.document_path,
      input_append_id: appendId,
      text,
      ...(segment?.language ? { language: String(segment.language) } : {}),
      trigger: { ...checked.trigger, client_session_id: sid, mode: checked.trigger.mode ?? 'meeting', trigger_kind: checked.trigger.trigger_kind ?? 'meeting_window' },
      session_id: sid,
      segment_id: segId,
      source_segment_ids: ids,
      by,
    });
    if (retry) {
      input = await log.find((r) => r.kind === 'asr_transcript' && r.session_id === sid && (r.source_segment_ids ?? []).includes(segId)).then((f) => (f ? { ...f, created: false } : undefined));
    } else if (args.revision_only === true && segment && document) {
      input = await log.appendUnless((r) => r.kind === 'asr_transcript' && r.session_id === sid, () => (auto ? base(checked.text, [segId]) : undefined));
    } else if (due && auto && document) {
      input = await log.append(base(due.text, due.segment_ids));
    }

    let delivery: { emitted: boolean; error?: string } = { emitted: false };
    if (input && !input.notifyEventId) {
      if (input.created) {
        await deps.ledgers.append(gid, {
          kind: 'assistant.voice.document',
          by,
          data: { assistant_id: VOICE_ASSISTANT_ID, action: 'input_appended', input_kind: 'asr_transcript', ...brief(document!), input_preview: input.record.text.slice(0, 500) },
        });
      }
      delivery = await deps.voiceInput.deliver(gid, [input.record]);
    }

    // Idle review: on recording stop, or after enough transcript inputs and the cooldown.
    const stop = checked.flush && STOP_TRIGGER_KINDS.has(String(checked.trigger.trigger_kind ?? ''));
    let review: IdleReviewReason | undefined;
    if (input?.created) review = await log.noteTranscriptInput(stop);
    else if (stop && !retry && (await log.stopReviewDue())) review = 'stop_flush';
    const reviewPath = document?.document_path ?? sessionPath;
    const idle_review_requested = review && reviewPath ? await requestIdleReview(deps, log, gid, reviewPath, review) : false;

    const after = await readAssistantsFile(deps.layout.groupDir(gid));
    return {
      group_id: gid,
      assistant: deps.voiceInput.record(gid, after),
      session_id: sid,
      ...(segment ? { segment, segment_path: segmentPath } : {}),
      ...(document ? { document } : {}),
      document_updated: false,
      ...(input ? { input_event: input.record as unknown as Rec } : {}),
      input_event_created: input?.created === true,
      input_notify_emitted: delivery.emitted,
      ...(delivery.error ? { input_notify_error: delivery.error } : {}),
      ...(idle_review_requested ? { idle_review_requested } : {}),
    };
  });
}

function supersedesNone(segment: Rec | undefined): boolean {
  return !Array.isArray(segment?.supersedes_segment_ids) || segment.supersedes_segment_ids.length === 0;
}

/** The idle review nudge: an `idle_review` input for the document, delivered like any input. */
async function requestIdleReview(deps: VoiceTranscriptDeps, log: InputLog, gid: string, path: string, reason: IdleReviewReason): Promise<boolean> {
  const { record } = await log.append({
    kind: 'idle_review',
    document_path: path,
    input_append_id: `idle:${randomUUID().replace(/-/g, '')}`,
    text: idleReviewText(path, reason),
    trigger: { trigger_kind: 'idle_review', reason },
    by: 'system',
  });
  await log.markIdleReview(record.seq);
  return (await deps.voiceInput.deliver(gid, [record])).emitted;
}
