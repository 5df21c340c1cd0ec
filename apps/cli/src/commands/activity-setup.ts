import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@cccc/durable-fs';

/** The Claude Code hook events the recorder listens to. */
export const ACTIVITY_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'Notification',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
] as const;
const NOTIFICATION_MATCHER = 'permission_prompt|idle_prompt|elicitation_dialog';

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Absolute, shell-quoted, and exit 0 even when the CLI is gone, so a hook can never block a tool. */
export function activityHookCommand(node: string, cliEntry: string): string {
  return `${shellQuote(node)} ${shellQuote(cliEntry)} hook claude-activity 2>/dev/null; exit 0`;
}

type HookGroup = { matcher?: string; hooks: { type: 'command'; command: string; timeout: number }[] };

export function activityHooks(command: string): Record<string, HookGroup[]> {
  const hooks: Record<string, HookGroup[]> = {};
  for (const event of ACTIVITY_HOOK_EVENTS) {
    const group: HookGroup = { hooks: [{ type: 'command', command, timeout: 3 }] };
    hooks[event] = [event === 'Notification' ? { matcher: NOTIFICATION_MATCHER, ...group } : group];
  }
  return hooks;
}

export class SettingsRefused extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Merge the recorder hooks into a settings object: add a group to each event that has no
 * `hook claude-activity` command yet, keep everything else as it is. Returns null when nothing
 * changes. Throws `SettingsRefused` rather than overwrite a shape it does not understand.
 */
export function mergeActivityHooks(settings: unknown, command: string): Record<string, unknown> | null {
  if (!isRecord(settings)) throw new SettingsRefused('settings.json is not a JSON object');
  const existing = settings.hooks ?? {};
  if (!isRecord(existing)) throw new SettingsRefused('settings.json "hooks" is not an object');
  const hooks: Record<string, unknown> = { ...existing };
  let changed = false;
  for (const [event, groups] of Object.entries(activityHooks(command))) {
    const current = hooks[event] ?? [];
    if (!Array.isArray(current)) throw new SettingsRefused(`settings.json "hooks.${event}" is not an array`);
    const present = JSON.stringify(current).includes('hook claude-activity');
    if (present) continue;
    hooks[event] = [...current, ...groups];
    changed = true;
  }
  return changed ? { ...settings, hooks } : null;
}

export type SetupOutcome = 'installed' | 'already_installed';

/** Merge into `<claude config dir>/settings.json` atomically; never through a symlink, never clobbering. */
export async function installActivityHooks(configDir: string, command: string): Promise<SetupOutcome> {
  const path = join(configDir, 'settings.json');
  let text: string | null = null;
  try {
    if ((await lstat(path)).isSymbolicLink()) throw new SettingsRefused(`${path} is a symlink; add the hooks by hand (see --print)`);
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let settings: unknown = {};
  if (text !== null && text.trim() !== '') {
    try {
      settings = JSON.parse(text);
    } catch {
      throw new SettingsRefused(`${path} is not valid JSON; fix it or add the hooks by hand (see --print)`);
    }
  }
  const merged = mergeActivityHooks(settings, command);
  if (!merged) return 'already_installed';
  await writeFileAtomic(path, JSON.stringify(merged, null, 2) + '\n', 0o600);
  return 'installed';
}
