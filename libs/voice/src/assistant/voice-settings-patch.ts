import { voiceError, VoiceErrorCodes } from '../errors.js';
import { VOICE_ACTOR_ID } from '../permissions.js';
import { DEFAULT_VOICE_CONFIG, VOICE_ASSISTANT_ID } from './assistant-record.js';

export interface VoiceSettingsPatch {
  readonly enabled?: boolean;
  readonly config?: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `document_default_dir` is resolved under the workspace (or CCCC_HOME): a relative directory
 * without `.` / `..` segments. Anything else is `invalid_request` naming the field.
 */
export function assertVoiceConfigPatch(config: Record<string, unknown> | undefined): void {
  const dir = config?.document_default_dir;
  if (dir === undefined) return;
  const path = typeof dir === 'string' ? dir.trim().replace(/\\/g, '/').replace(/\/+$/, '') : '';
  const parts = path.split('/');
  if (!path || path.startsWith('/') || /^[A-Za-z]:/.test(path) || /[\u0000-\u001f]/.test(path) || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw voiceError(VoiceErrorCodes.invalidRequest, 'document_default_dir must be a relative directory without . or .. segments', { field: 'document_default_dir' });
  }
}

/**
 * Pure: the `assistants` map of group.yaml with the voice secretary's `enabled` and merged
 * `config` (stored over the defaults on first write). Other assistants' entries are kept.
 */
export function applyVoiceSettingsPatch(assistants: unknown, patch: VoiceSettingsPatch, enabled: boolean): Record<string, unknown> {
  const all = isRecord(assistants) ? { ...assistants } : {};
  const current = isRecord(all[VOICE_ASSISTANT_ID]) ? (all[VOICE_ASSISTANT_ID] as Record<string, unknown>) : {};
  const config = { ...DEFAULT_VOICE_CONFIG, ...(isRecord(current.config) ? current.config : {}), ...(patch.config ?? {}) };
  all[VOICE_ASSISTANT_ID] = { ...current, enabled, config };
  return all;
}

/**
 * Pure: the hidden `voice-secretary` actor, a copy of the foreman's runtime configuration
 * (runtime, command, env, scope, submit, runner) under its own identity. It belongs to no
 * profile and has no role (an internal actor is invisible to role lookups).
 */
export function voiceSecretaryActorFrom<T extends Record<string, unknown>>(foreman: T, now: string): T {
  const { role: _role, ...rest } = foreman as Record<string, unknown>;
  return {
    ...rest,
    id: VOICE_ACTOR_ID,
    title: 'Voice Secretary',
    internal_kind: VOICE_ASSISTANT_ID,
    enabled: true,
    profile_id: '',
    profile_owner: '',
    profile_scope: 'global',
    profile_revision_applied: 0,
    capability_autoload: [],
    capability_hidden: [],
    avatar_asset_path: '',
    created_at: now,
    updated_at: now,
  } as unknown as T;
}
