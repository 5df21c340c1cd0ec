import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { VOICE_ASSISTANT_ID } from './assistant-record.js';
import { assistantsFilePath, readAssistantsFile } from './assistants-file.js';

export const VOICE_LIFECYCLES = ['disabled', 'idle', 'running', 'working', 'waiting', 'failed'] as const;
export type VoiceLifecycle = (typeof VOICE_LIFECYCLES)[number];

/** Live process observations never persisted in state/assistants.json (the spec's rule); `actor` is projected at read time. */
const LIVE_KEYS = new Set(['actor', 'pid', 'port', 'socket', 'socket_path', 'alive', 'handle']);

/** The durable part of a reported health record. */
export function durableHealth(health: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(health ?? {}).filter(([k]) => !LIVE_KEYS.has(k)));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Pure: the assistants document with the voice secretary's lifecycle / health replaced. Every
 * other key (sessions, asks, the reserved `rust_state`) is kept as it was.
 */
export function withVoiceStatus(doc: Record<string, unknown>, lifecycle: VoiceLifecycle, health: Record<string, unknown>, now: string): Record<string, unknown> {
  const previous = isRecord(doc.assistant) ? doc.assistant : isRecord(doc[VOICE_ASSISTANT_ID]) ? (doc[VOICE_ASSISTANT_ID] as Record<string, unknown>) : {};
  const assistant = { ...previous, assistant_id: VOICE_ASSISTANT_ID, lifecycle, health: durableHealth(health), updated_at: now };
  const next: Record<string, unknown> = { ...doc, assistant };
  delete next[VOICE_ASSISTANT_ID];
  return next;
}

/**
 * Read-modify-write of `groups/<gid>/state/assistants.json` under a kernel flock on the sibling
 * `assistants.json.lock` (a Web process may share the home). `mutate` returns the new document;
 * it throwing writes nothing.
 */
export async function updateAssistantsFile(groupDir: string, mutate: (doc: Record<string, unknown>) => Record<string, unknown>): Promise<Record<string, unknown>> {
  const path = assistantsFilePath(groupDir);
  let lock: FileLock;
  try {
    lock = await FileLock.acquire(`${path}.lock`, 10_000);
  } catch (err) {
    throw voiceError(VoiceErrorCodes.ioError, `state/assistants.json lock: ${(err as Error).message}`);
  }
  try {
    const next = mutate(await readAssistantsFile(groupDir));
    try {
      await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    } catch (err) {
      throw voiceError(VoiceErrorCodes.ioError, `cannot write state/assistants.json: ${(err as Error).message}`);
    }
    return next;
  } finally {
    lock.release();
  }
}
