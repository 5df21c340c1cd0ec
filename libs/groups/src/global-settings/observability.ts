import { z } from 'zod';
import { groupError } from '../errors.js';

// §8.2 observability: the global settings a developer turns on (developer mode, log level) and
// the Web's terminal/runtime display preferences. Pure: defaults, merge of the stored section,
// validation of a patch. The reference keeps the same section in settings.yaml.

export const LOG_LEVEL_NAMES = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
const LogLevelName = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(LOG_LEVEL_NAMES));
const Visibility = z.enum(['hidden', 'visible']);

const TerminalTranscript = z.object({
  enabled: z.boolean(),
  per_actor_bytes: z.number().int().min(0),
  persist: z.boolean(),
  strip_ansi: z.boolean(),
});
const TerminalUi = z.object({ scrollback_lines: z.number().int().min(1000).max(200_000) });
const RuntimeVisibility = z.object({ peer_runtime: Visibility, assistant_runtime: Visibility });

export const Observability = z.object({
  developer_mode: z.boolean(),
  log_level: LogLevelName,
  components: z.array(z.string().trim().min(1)),
  logger_levels: z.record(z.string().trim().min(1), LogLevelName),
  terminal_transcript: TerminalTranscript,
  terminal_ui: TerminalUi,
  runtime_visibility: RuntimeVisibility,
});
export type Observability = z.infer<typeof Observability>;

/** A patch: any subset of the keys, sections partial; an unknown key is refused. */
const ObservabilityPatch = z.strictObject({
  developer_mode: z.boolean().optional(),
  log_level: LogLevelName.optional(),
  components: z.array(z.string().trim().min(1)).optional(),
  logger_levels: z.record(z.string().trim().min(1), LogLevelName).optional(),
  terminal_transcript: TerminalTranscript.partial().strict().optional(),
  terminal_ui: TerminalUi.partial().strict().optional(),
  runtime_visibility: RuntimeVisibility.partial().strict().optional(),
});

export const DEFAULT_OBSERVABILITY: Observability = {
  developer_mode: false,
  log_level: 'INFO',
  components: ['daemon', 'web', 'delivery', 'im', 'pty', 'mcp'],
  logger_levels: {},
  terminal_transcript: { enabled: false, per_actor_bytes: 10 * 1024 * 1024, persist: false, strip_ansi: true },
  terminal_ui: { scrollback_lines: 8000 },
  runtime_visibility: { peer_runtime: 'visible', assistant_runtime: 'hidden' },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The effective settings from whatever the file holds: each stored key that is valid wins over
 * its default, an invalid or missing one falls back (a hand-edited file never breaks reads).
 */
export function mergeObservability(stored: unknown): Observability {
  const out: Record<string, unknown> = structuredClone(DEFAULT_OBSERVABILITY);
  if (!isRecord(stored)) return out as Observability;
  const shape = Observability.shape;
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    const value = stored[key];
    if (value === undefined) continue;
    const defaults = out[key];
    if (isRecord(defaults) && isRecord(value) && key !== 'logger_levels') {
      const section = shape[key] as unknown as z.ZodObject<Record<string, z.ZodType>>;
      for (const [inner, schema] of Object.entries(section.shape)) {
        const parsed = schema.safeParse(value[inner]);
        if (parsed.success) defaults[inner] = parsed.data;
      }
      continue;
    }
    const parsed = shape[key].safeParse(value);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as Observability;
}

/** Apply a validated patch (`invalid_patch` naming the first bad field otherwise). */
export function applyObservabilityPatch(current: Observability, patch: Record<string, unknown>): Observability {
  if (Object.keys(patch).length === 0) throw groupError('invalid_patch', 'patch is empty', {});
  const parsed = ObservabilityPatch.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])].join('.');
    throw groupError('invalid_patch', `observability ${path || 'patch'}: ${issue.message}`, { field: path });
  }
  const next = structuredClone(current);
  const p = parsed.data;
  if (p.developer_mode !== undefined) next.developer_mode = p.developer_mode;
  if (p.log_level !== undefined) next.log_level = p.log_level;
  if (p.components !== undefined) next.components = p.components;
  if (p.logger_levels !== undefined) next.logger_levels = p.logger_levels;
  if (p.terminal_transcript) Object.assign(next.terminal_transcript, p.terminal_transcript);
  if (p.terminal_ui) Object.assign(next.terminal_ui, p.terminal_ui);
  if (p.runtime_visibility) Object.assign(next.runtime_visibility, p.runtime_visibility);
  return next;
}
