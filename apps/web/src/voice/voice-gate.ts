import { isIpcError } from '@cccc/ipc-protocol';
import type { DaemonClient } from '@cccc/ipc-protocol/node';
import { HttpError } from '../http/errors.js';

export interface VoiceGroupState {
  readonly assistant: Record<string, unknown>;
  readonly enabled: boolean;
  readonly config: { recognition_backend: string; service_model_id: string; recognition_language?: string } & Record<string, unknown>;
}

/** The Voice Secretary as the daemon answers it (settings are the daemon's, never the Web's guess). */
export async function voiceGroupState(client: DaemonClient, groupId: string): Promise<VoiceGroupState> {
  const r = await client.call('assistant_state', { group_id: groupId, assistant_id: 'voice_secretary' });
  const assistant = (r.assistant ?? {}) as Record<string, unknown>;
  const config = (assistant.config ?? {}) as VoiceGroupState['config'];
  return { assistant, enabled: assistant.enabled === true, config };
}

/** Voice Secretary must be on for the transcription endpoints (spec preconditions). */
export function requireEnabled(state: VoiceGroupState): void {
  if (!state.enabled) throw new HttpError(409, 'assistant_disabled', 'Voice Secretary is not enabled for this group');
}

/** A libs/voice refusal (IpcError) as the Web's error, with the HTTP status its code implies. */
export function asHttpError(err: unknown): unknown {
  if (!isIpcError(err)) return err;
  const status = err.code === 'audio_too_large' ? 413 : err.code === 'asr_busy' ? 409 : err.code === 'voice_model_not_installed' || err.code === 'asr_runtime_not_ready' ? 409 : 400;
  return new HttpError(status, err.code, err.message, err.details);
}

export interface LeaseCheck {
  readonly owner_id?: string | null;
  readonly lease_id?: string | null;
}

/**
 * The recording lease, revalidated through the daemon (heartbeat matches owner_id + lease_id and
 * never creates a lease). Returns the public lease; a lost or foreign lease is refused.
 */
export async function heartbeatLease(client: DaemonClient, groupId: string, lease: LeaseCheck): Promise<Record<string, unknown>> {
  if (!lease.owner_id) throw new HttpError(400, 'missing_owner_id', 'owner_id is required');
  if (!lease.lease_id) throw new HttpError(400, 'missing_lease_id', 'lease_id is required');
  const r = await client.call('assistant_voice_recording_lease', { group_id: groupId, by: 'user', action: 'heartbeat', owner_id: lease.owner_id, lease_id: lease.lease_id });
  if (!r.acquired || r.lost || !r.lease) throw new HttpError(409, 'assistant_voice_recording_lease_lost', 'the recording lease is not held by this owner_id / lease_id');
  return r.lease as Record<string, unknown>;
}

/**
 * Push-to-talk HTTP uploads may run without a lease; while someone holds one, only its holder
 * (owner_id + lease_id) may upload, and only under a service-capture lease.
 */
export async function checkUploadLease(client: DaemonClient, groupId: string, lease: LeaseCheck): Promise<void> {
  const status = await client.call('assistant_voice_recording_lease', { group_id: groupId, by: 'user', action: 'status' });
  if (!status.lease && !lease.owner_id && !lease.lease_id) return;
  if (status.lease && (!lease.owner_id || !lease.lease_id)) {
    throw new HttpError(409, 'assistant_voice_recording_busy', 'another recording holds the Voice Secretary lease', { active_lease: status.lease });
  }
  const active = await heartbeatLease(client, groupId, lease).catch((err: unknown) => {
    if (err instanceof HttpError && err.code === 'assistant_voice_recording_lease_lost' && status.lease) {
      throw new HttpError(409, 'assistant_voice_recording_busy', 'another recording holds the Voice Secretary lease', { active_lease: status.lease });
    }
    throw err;
  });
  if (active.capture_mode !== undefined && active.capture_mode !== 'service') {
    throw new HttpError(409, 'assistant_voice_recording_lease_mismatch', `the lease captures in ${String(active.capture_mode)} mode, not service`, { capture_mode: active.capture_mode });
  }
}
