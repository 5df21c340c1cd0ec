export const VOICE_ASSISTANT_ID = 'voice_secretary';

/** Voice Secretary configuration defaults (spec §8.3 assistant_settings_update). */
export const DEFAULT_VOICE_CONFIG = {
  capture_mode: 'browser',
  recognition_backend: 'browser_asr',
  recognition_language: 'auto',
  retention_ttl_seconds: 900,
  auto_document_enabled: true,
  document_default_dir: 'docs/voice-secretary',
  auto_document_quiet_ms: 5000,
  auto_document_min_chars: 700,
  auto_document_max_window_seconds: 300,
  service_model_id: '',
  tts_enabled: false,
} as const;

export type VoiceConfig = { -readonly [K in keyof typeof DEFAULT_VOICE_CONFIG]: (typeof DEFAULT_VOICE_CONFIG)[K] extends boolean ? boolean : (typeof DEFAULT_VOICE_CONFIG)[K] extends number ? number : string } & Record<string, unknown>;

export interface VoiceSettings {
  readonly enabled: boolean;
  readonly config: VoiceConfig;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The effective settings from `group.yaml:assistants.voice_secretary` (enabled + config), over the
 * defaults. Values of the wrong type are ignored rather than trusted.
 */
export function voiceSettingsOf(groupDoc: Record<string, unknown>): VoiceSettings {
  const assistants = isRecord(groupDoc.assistants) ? groupDoc.assistants : {};
  const stored = isRecord(assistants[VOICE_ASSISTANT_ID]) ? (assistants[VOICE_ASSISTANT_ID] as Record<string, unknown>) : {};
  const raw = isRecord(stored.config) ? stored.config : {};
  const config: Record<string, unknown> = { ...DEFAULT_VOICE_CONFIG };
  for (const [key, value] of Object.entries(raw)) {
    const def = (DEFAULT_VOICE_CONFIG as Record<string, unknown>)[key];
    if (def === undefined || typeof value === typeof def) config[key] = value;
  }
  return { enabled: stored.enabled === true, config: config as VoiceConfig };
}

/** The durable workflow record of `state/assistants.json` this package reads: lifecycle and health. */
export interface AssistantWorkflow {
  readonly lifecycle?: string;
  readonly health?: Record<string, unknown>;
  /** The active prompt_draft projection (the newest pending draft). */
  readonly prompt_draft?: Record<string, unknown>;
  /** The visible (not cleared) Ask requests, most recently updated first (at most 30). */
  readonly ask_requests?: ReadonlyArray<Record<string, unknown>>;
}

/**
 * The assistant record `assistant_state` answers: identity, settings, lifecycle (durable, or
 * `disabled` / `idle` from the settings), durable health plus the live actor observation.
 */
export function assistantRecord(settings: VoiceSettings, workflow: AssistantWorkflow, actor: { configured: boolean; running: boolean }): Record<string, unknown> {
  const lifecycle = !settings.enabled ? 'disabled' : workflow.lifecycle && workflow.lifecycle !== 'disabled' ? workflow.lifecycle : 'idle';
  return {
    assistant_id: VOICE_ASSISTANT_ID,
    kind: VOICE_ASSISTANT_ID,
    principal: 'assistant:voice_secretary',
    enabled: settings.enabled,
    lifecycle,
    config: settings.config,
    health: { ...(workflow.health ?? {}), actor },
    ...(workflow.prompt_draft ? { prompt_draft: workflow.prompt_draft } : {}),
    ...(workflow.ask_requests ? { ask_requests: workflow.ask_requests } : {}),
  };
}
