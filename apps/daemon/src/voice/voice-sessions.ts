import { effectiveRole, principalOf, type GroupDoc } from '@cccc/groups';
import { rm, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertVoiceWriter,
  DocumentIndexStore,
  findDocument,
  recordedCompletion,
  safeDocumentPath,
  safePathComponent,
  updateAssistantsFile,
  validateSessionUpdate,
  VOICE_ACTOR_ID,
  VOICE_ASSISTANT_ID,
  voiceDocumentsDir,
  withClearedTranscript,
  withCompletion,
  withSessionPatch,
  type CompletionEvent,
  type SessionPatch,
} from '@cccc/voice';
import type { StoreDeps } from '../kernel/store-deps.js';

export type VoiceSessionsDeps = Pick<StoreDeps, 'layout' | 'groups' | 'ledgers' | 'groupLocks'>;

const hasVoiceActor = (group: GroupDoc) => group.actors.some((a) => a.id === VOICE_ACTOR_ID && a.internal_kind === VOICE_ASSISTANT_ID);
const assertWriter = (group: GroupDoc, by: string | undefined) => assertVoiceWriter(by, (id) => effectiveRole(group.actors, id), hasVoiceActor(group));

/**
 * assistant_voice_session_update: a Web-owned completion projection into the canonical session
 * (state/assistants.json), then at most one `assistant.voice.session` event per session and
 * outcome, under the group's write lock. Invalid combinations fail before any write.
 */
export async function updateVoiceSession(
  deps: VoiceSessionsDeps,
  args: { group_id: string; session_id: string; by?: string; completion_event?: CompletionEvent; patch: SessionPatch },
): Promise<{ group_id: string; session: Record<string, unknown>; completion_event_id?: string }> {
  const gid = args.group_id;
  assertWriter(deps.groups.get(gid), args.by);
  const sid = validateSessionUpdate(args.session_id, args.patch, args.completion_event);
  const dir = deps.layout.groupDir(gid);
  return deps.groupLocks.run(gid, async () => {
    let session: Record<string, unknown> = {};
    await updateAssistantsFile(dir, (doc) => {
      const out = withSessionPatch(doc, sid, args.patch, new Date().toISOString());
      session = out.session;
      return out.doc;
    });
    const completion = args.completion_event;
    if (!completion) return { group_id: gid, session };
    const prior = recordedCompletion(session, completion);
    if (prior) return { group_id: gid, session, completion_event_id: prior };
    const { event } = await deps.ledgers.append(gid, {
      kind: 'assistant.voice.session',
      by: principalOf(args.by, 'assistant:voice_secretary'),
      data: {
        assistant_id: VOICE_ASSISTANT_ID,
        session_id: sid,
        event: completion,
        status: args.patch.status,
        diarization_ready: args.patch.diarization_ready,
        ...(typeof session.document_path === 'string' ? { document_path: session.document_path } : {}),
      },
    });
    const doc = await updateAssistantsFile(dir, (d) => withCompletion(d, sid, completion, event.id));
    const saved = (doc.sessions as Array<Record<string, unknown>>).find((s) => s.session_id === sid) ?? session;
    return { group_id: gid, session: saved, completion_event_id: event.id };
  });
}

/**
 * assistant_voice_session_transcript_clear: empty the chosen session's display transcript and
 * remove the matching document transcript sidecar. Document Markdown is not touched.
 */
export async function clearVoiceTranscript(
  deps: VoiceSessionsDeps,
  args: { group_id: string; session_id?: string; document_path?: string; by?: string },
): Promise<{ group_id: string; session_id: string; cleared: boolean }> {
  const gid = args.group_id;
  assertWriter(deps.groups.get(gid), args.by);
  const sessionId = args.session_id?.trim() ? safePathComponent(args.session_id, 'session_id') : undefined;
  const docPath = args.document_path?.trim() ? safeDocumentPath(args.document_path) : undefined;
  return deps.groupLocks.run(gid, async () => {
    let outcome: { session_id?: string; cleared: boolean; document_path?: string } = { cleared: false };
    await updateAssistantsFile(deps.layout.groupDir(gid), (doc) => {
      const out = withClearedTranscript(doc, { session_id: sessionId, document_path: docPath }, new Date().toISOString());
      const s = (out.doc.sessions as Array<Record<string, unknown>> | undefined)?.find((x) => x.session_id === out.session_id);
      outcome = { session_id: out.session_id, cleared: out.cleared, document_path: typeof s?.document_path === 'string' ? s.document_path : undefined };
      return out.doc;
    });
    const path = docPath ?? outcome.document_path;
    let removed = false;
    if (path) {
      const doc = findDocument(await new DocumentIndexStore(deps.layout.home, gid).read(), path);
      if (doc) {
        const file = join(voiceDocumentsDir(deps.layout.home, gid), safePathComponent(doc.document_id, 'document_id'), 'transcript.jsonl');
        removed = (await lstat(file).catch(() => undefined))?.isFile() === true;
        if (removed) await rm(file, { force: true });
      }
    }
    return { group_id: gid, session_id: outcome.session_id ?? sessionId ?? '', cleared: outcome.cleared || removed };
  });
}
