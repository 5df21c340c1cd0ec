import { groupError } from './errors.js';
import { updateGroup } from './group-store.js';
import type { HomeLayout } from './home-layout.js';
import type { GroupDoc } from './schemas/group.js';

type Section = 'messaging' | 'delivery' | 'automation' | 'terminal_transcript';
type Kind = 'seconds' | 'count' | 'boolean' | { oneOf: readonly string[] };

interface SettingSpec {
  section: Section;
  key: string;
  kind: Kind;
}

/**
 * Settings `group_settings_update` accepts. Each is addressable by its flat spec name
 * (`mail_notice_after_seconds`, `terminal_transcript_visibility`) or its dotted path
 * (`delivery.mail_notice_after_seconds`); nested section objects are accepted too.
 */
const SETTINGS: Record<string, SettingSpec> = {
  default_send_to: { section: 'messaging', key: 'default_send_to', kind: { oneOf: ['foreman', 'broadcast'] } },
  root_body_policy: { section: 'messaging', key: 'root_body_policy', kind: { oneOf: ['off', 'summary'] } },
  min_interval_seconds: { section: 'delivery', key: 'min_interval_seconds', kind: 'seconds' },
  mail_notice_after_seconds: { section: 'delivery', key: 'mail_notice_after_seconds', kind: 'seconds' },
  reply_notice_after_seconds: { section: 'delivery', key: 'reply_notice_after_seconds', kind: 'seconds' },
  actor_idle_timeout_seconds: { section: 'automation', key: 'actor_idle_timeout_seconds', kind: 'seconds' },
  keepalive_delay_seconds: { section: 'automation', key: 'keepalive_delay_seconds', kind: 'seconds' },
  keepalive_max_per_actor: { section: 'automation', key: 'keepalive_max_per_actor', kind: 'count' },
  silence_timeout_seconds: { section: 'automation', key: 'silence_timeout_seconds', kind: 'seconds' },
  help_nudge_interval_seconds: { section: 'automation', key: 'help_nudge_interval_seconds', kind: 'seconds' },
  help_nudge_min_messages: { section: 'automation', key: 'help_nudge_min_messages', kind: 'count' },
  terminal_transcript_visibility: { section: 'terminal_transcript', key: 'visibility', kind: { oneOf: ['off', 'foreman', 'all'] } },
  terminal_transcript_notify_tail: { section: 'terminal_transcript', key: 'notify_tail', kind: 'boolean' },
  terminal_transcript_notify_lines: { section: 'terminal_transcript', key: 'notify_lines', kind: 'count' },
};

const BY_PATH = new Map(Object.values(SETTINGS).map((s) => [`${s.section}.${s.key}`, s]));
/** Listed once: every send reads the settings, and a fresh entries array per call was its garbage. */
const SETTING_ENTRIES = Object.entries(SETTINGS);

function specFor(name: string): SettingSpec | undefined {
  // Own keys only: `constructor`, `toString`, ... are names a patch may carry, not settings.
  return (Object.hasOwn(SETTINGS, name) ? SETTINGS[name] : undefined) ?? BY_PATH.get(name);
}

function checkValue(name: string, spec: SettingSpec, value: unknown): unknown {
  const bad = (expected: string) =>
    groupError('invalid_patch', `${name} must be ${expected}`, { field: name, value: typeof value === 'string' ? value : undefined });
  if (spec.kind === 'boolean') {
    if (typeof value !== 'boolean') throw bad('a boolean');
    return value;
  }
  if (spec.kind === 'seconds' || spec.kind === 'count') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw bad('a non-negative integer');
    return value;
  }
  if (typeof value !== 'string' || !spec.kind.oneOf.includes(value)) throw bad(`one of ${spec.kind.oneOf.join('|')}`);
  return value;
}

/** Flatten `{delivery: {x: 1}}` and `{"delivery.x": 1}` and `{x: 1}` into validated (spec, value) pairs. */
export function normalizeSettingsPatch(patch: Record<string, unknown>): Array<{ spec: SettingSpec; name: string; value: unknown }> {
  const out: Array<{ spec: SettingSpec; name: string; value: unknown }> = [];
  for (const [name, value] of Object.entries(patch)) {
    const direct = specFor(name);
    if (direct) {
      out.push({ spec: direct, name, value: checkValue(name, direct, value) });
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && ['messaging', 'delivery', 'automation', 'terminal_transcript'].includes(name)) {
      for (const [key, inner] of Object.entries(value)) {
        const spec = BY_PATH.get(`${name}.${key}`);
        if (!spec) throw groupError('invalid_patch', `unknown setting ${name}.${key}`, { field: `${name}.${key}` });
        out.push({ spec, name: `${name}.${key}`, value: checkValue(`${name}.${key}`, spec, inner) });
      }
      continue;
    }
    throw groupError('invalid_patch', `unknown setting ${name}`, { field: name });
  }
  if (out.length === 0) throw groupError('invalid_patch', 'patch is empty', {});
  return out;
}

/** Pure: apply a validated settings patch to a group document. */
export function applySettingsPatch(group: GroupDoc, patch: Record<string, unknown>): void {
  for (const { spec, value } of normalizeSettingsPatch(patch)) {
    const g = group as Record<string, unknown>;
    const section = (g[spec.section] ?? {}) as Record<string, unknown>;
    section[spec.key] = value;
    g[spec.section] = section;
  }
}

export interface GroupSettings {
  default_send_to: 'foreman' | 'broadcast';
  root_body_policy: 'off' | 'summary';
  min_interval_seconds: number;
  mail_notice_after_seconds: number;
  reply_notice_after_seconds: number;
  actor_idle_timeout_seconds: number;
  keepalive_delay_seconds: number;
  keepalive_max_per_actor: number;
  silence_timeout_seconds: number;
  help_nudge_interval_seconds: number;
  help_nudge_min_messages: number;
  terminal_transcript_visibility: 'off' | 'foreman' | 'all';
  terminal_transcript_notify_tail: boolean;
  terminal_transcript_notify_lines: number;
}

const DEFAULTS: GroupSettings = {
  default_send_to: 'foreman',
  root_body_policy: 'off',
  min_interval_seconds: 0,
  mail_notice_after_seconds: 1800,
  reply_notice_after_seconds: 900,
  actor_idle_timeout_seconds: 0,
  keepalive_delay_seconds: 0,
  keepalive_max_per_actor: 0,
  silence_timeout_seconds: 0,
  help_nudge_interval_seconds: 0,
  help_nudge_min_messages: 0,
  terminal_transcript_visibility: 'foreman',
  terminal_transcript_notify_tail: false,
  terminal_transcript_notify_lines: 0,
};

/** Effective settings with defaults filled in (flat names as in the spec). */
export function groupSettings(group: GroupDoc): GroupSettings {
  const out = { ...DEFAULTS } as Record<string, unknown>;
  const g = group as Record<string, unknown>;
  for (const [name, spec] of SETTING_ENTRIES) {
    const section = g[spec.section] as Record<string, unknown> | undefined;
    const value = section?.[spec.key];
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out as unknown as GroupSettings;
}

/** `group_settings_update`: validate, apply under the group.yaml lock, return the effective settings. */
export async function updateGroupSettings(
  layout: HomeLayout,
  groupId: string,
  patch: Record<string, unknown>,
): Promise<{ group: GroupDoc; settings: GroupSettings }> {
  normalizeSettingsPatch(patch);
  const { group } = await updateGroup(layout, groupId, (g) => applySettingsPatch(g, patch));
  return { group, settings: groupSettings(group) };
}
