import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { VOICE_ASSISTANT_ID, type AssistantWorkflow } from './assistant-record.js';
import { activePromptDraft } from '../prompt/prompt-drafts.js';

/** `groups/<group_id>/state/assistants.json`: durable workflow records of the built-in assistants. */
export function assistantsFilePath(groupDir: string): string {
  return join(groupDir, 'state', 'assistants.json');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The whole document (empty when the file does not exist yet); unreadable JSON is `io_error`. */
export async function readAssistantsFile(groupDir: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(assistantsFilePath(groupDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw voiceError(VoiceErrorCodes.ioError, `cannot read state/assistants.json: ${(err as Error).message}`);
  }
  try {
    const doc = JSON.parse(text) as unknown;
    return isRecord(doc) ? doc : {};
  } catch {
    throw voiceError(VoiceErrorCodes.ioError, 'state/assistants.json is not valid JSON');
  }
}

/** The voice secretary's lifecycle / health within that document (its `assistant` record, or the older `voice_secretary` key). */
export function voiceWorkflowOf(doc: Record<string, unknown>): AssistantWorkflow {
  const rec = isRecord(doc.assistant) ? doc.assistant : isRecord(doc[VOICE_ASSISTANT_ID]) ? doc[VOICE_ASSISTANT_ID] : {};
  const r = rec as Record<string, unknown>;
  const draft = activePromptDraft(doc);
  const asks = (Array.isArray(doc.ask_requests) ? doc.ask_requests : []).filter((a): a is Record<string, unknown> => isRecord(a) && !a.cleared_at);
  return {
    ...(draft ? { prompt_draft: draft } : {}),
    ...(asks.length ? { ask_requests: [...asks].sort((a, b) => String(b.updated_at ?? '').localeCompare(String(a.updated_at ?? ''))).slice(0, 30) } : {}),
    ...(typeof r.lifecycle === 'string' ? { lifecycle: r.lifecycle } : {}),
    ...(isRecord(r.health) ? { health: r.health } : {}),
  };
}
