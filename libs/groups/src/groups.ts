import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readActiveGroupId, writeActiveGroupId } from './active-group.js';
import { utcNowIso } from './clock.js';
import { groupError } from './errors.js';
import { groupExists, loadGroup, updateGroup, writeNewGroup } from './group-store.js';
import { newGroupDocument } from './group-template.js';
import type { HomeLayout } from './home-layout.js';
import { newGroupId } from './ids.js';
import { readRegistry, updateRegistry } from './registry-store.js';
import { GroupState, type GroupDoc } from './schemas/group.js';

export interface GroupSummary {
  group_id: string;
  title: string;
  topic: string;
  created_at: string;
  updated_at: string;
  running: boolean;
  state: GroupState;
  default_scope_key: string;
  active_scope_key: string;
}

export function summarizeGroup(group: GroupDoc, defaultScopeKey = ''): GroupSummary {
  return {
    group_id: group.group_id,
    title: group.title,
    topic: group.topic,
    created_at: group.created_at,
    updated_at: group.updated_at,
    running: group.running,
    state: group.state,
    default_scope_key: defaultScopeKey,
    active_scope_key: group.active_scope_key,
  };
}

/** Create a group (`group_create`): group.yaml plus its registry entry. */
export async function createGroup(
  layout: HomeLayout,
  input: { title?: string; topic?: string; groupId?: string } = {},
): Promise<GroupDoc> {
  const now = utcNowIso();
  if (input.groupId && groupExists(layout, input.groupId)) {
    throw groupError('group_exists', `group already exists: ${input.groupId}`, { group_id: input.groupId });
  }
  let groupId = input.groupId ?? newGroupId();
  while (!input.groupId && groupExists(layout, groupId)) groupId = newGroupId();
  const title = input.title?.trim() || 'working-group';
  const topic = input.topic ?? '';
  await writeNewGroup(layout, newGroupDocument({ groupId, title, topic, now }));
  await updateRegistry(layout, (registry) => {
    registry.groups[groupId] = {
      group_id: groupId,
      title,
      topic,
      path: layout.groupDir(groupId),
      default_scope_key: '',
      created_at: now,
      updated_at: now,
    };
  });
  return loadGroup(layout, groupId);
}

/** `group_update`: title and topic only; mirrors them into the registry entry. */
export async function updateGroupMeta(
  layout: HomeLayout,
  groupId: string,
  patch: { title?: string; topic?: string },
): Promise<{ group: GroupDoc; patch: { title?: string; topic?: string } }> {
  const applied: { title?: string; topic?: string } = {};
  if (patch.title !== undefined) {
    const title = patch.title.trim();
    if (!title) throw groupError('invalid_patch', 'title must not be empty', { field: 'title' });
    applied.title = title;
  }
  if (patch.topic !== undefined) applied.topic = patch.topic;
  const { group } = await updateGroup(layout, groupId, (g) => Object.assign(g, applied));
  await updateRegistry(layout, (registry) => {
    const entry = registry.groups[groupId];
    if (entry) Object.assign(entry, applied, { updated_at: group.updated_at });
  });
  return { group, patch: applied };
}

/**
 * `group_delete`: removes the group directory, its registry entry and default-scope mappings,
 * its actors' private env, and the CLI's active pointer when it named this group.
 */
export async function deleteGroup(layout: HomeLayout, groupId: string): Promise<{ group_id: string }> {
  loadGroup(layout, groupId);
  await updateRegistry(layout, (registry) => {
    delete registry.groups[groupId];
    for (const [scopeKey, gid] of Object.entries(registry.defaults)) {
      if (gid === groupId) delete registry.defaults[scopeKey];
    }
  });
  rmSync(layout.groupDir(groupId), { recursive: true, force: true });
  rmSync(layout.actorSecretsGroupDir(groupId), { recursive: true, force: true });
  if (readActiveGroupId(layout) === groupId) writeActiveGroupId(layout, '');
  return { group_id: groupId };
}

/**
 * `groups`: registry summaries enriched with running/state from each group.yaml, read through
 * `load` (a caller's cache of parsed documents; by default each file is parsed).
 */
export function listGroups(layout: HomeLayout, load: (groupId: string) => GroupDoc = (groupId) => loadGroup(layout, groupId)): GroupSummary[] {
  const registry = readRegistry(layout);
  const out: GroupSummary[] = [];
  for (const [groupId, entry] of Object.entries(registry.groups)) {
    try {
      out.push(summarizeGroup(load(groupId), entry.default_scope_key ?? ''));
    } catch {
      // Missing or corrupt groups are reported by registry_reconcile, not listed.
    }
  }
  return out.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.group_id.localeCompare(b.group_id));
}

export interface ReconcileReport {
  dry_run: boolean;
  scanned_groups: number;
  missing_group_ids: string[];
  corrupt_group_ids: string[];
  removed_group_ids: string[];
  removed_default_scope_keys: string[];
}

/** `registry_reconcile`: find registry entries whose group.yaml is missing or corrupt; optionally drop the missing ones. */
export async function reconcileRegistry(layout: HomeLayout, options: { removeMissing?: boolean } = {}): Promise<ReconcileReport> {
  const registry = readRegistry(layout);
  const missing: string[] = [];
  const corrupt: string[] = [];
  for (const groupId of Object.keys(registry.groups)) {
    if (!groupExists(layout, groupId)) {
      missing.push(groupId);
      continue;
    }
    try {
      loadGroup(layout, groupId);
    } catch {
      corrupt.push(groupId);
    }
  }
  const report: ReconcileReport = {
    dry_run: !options.removeMissing,
    scanned_groups: Object.keys(registry.groups).length,
    missing_group_ids: missing,
    corrupt_group_ids: corrupt,
    removed_group_ids: [],
    removed_default_scope_keys: [],
  };
  if (options.removeMissing && missing.length > 0) {
    await updateRegistry(layout, (reg) => {
      for (const groupId of missing) {
        if (!reg.groups[groupId] || groupExists(layout, groupId)) continue;
        delete reg.groups[groupId];
        report.removed_group_ids.push(groupId);
      }
      for (const [scopeKey, gid] of Object.entries(reg.defaults)) {
        if (report.removed_group_ids.includes(gid)) {
          delete reg.defaults[scopeKey];
          report.removed_default_scope_keys.push(scopeKey);
        }
      }
    });
  }
  return report;
}

/** Group directories on disk that the registry does not list (for diagnostics). */
export function unregisteredGroupIds(layout: HomeLayout): string[] {
  if (!existsSync(layout.groupsDir)) return [];
  const registry = readRegistry(layout);
  return readdirSync(layout.groupsDir).filter((name) => !(name in registry.groups) && groupExists(layout, name));
}

/** `group_set_state`. IPC v1 only allows active|idle|paused; `stopped` is for group_stop, so the caller decides. */
export async function setGroupState(
  layout: HomeLayout,
  groupId: string,
  state: string,
): Promise<{ group: GroupDoc; old_state: GroupState; new_state: GroupState }> {
  const parsed = GroupState.safeParse(state);
  if (!parsed.success) {
    throw groupError('invalid_state', `state must be one of ${GroupState.options.join('|')}`, { state });
  }
  const { group, result } = await updateGroup(layout, groupId, (g) => {
    const old = g.state;
    g.state = parsed.data;
    return old;
  });
  return { group, old_state: result, new_state: parsed.data };
}

/** Record the desired running flag (`group_start`/`group_stop` before runtimes exist). */
export async function setGroupRunning(layout: HomeLayout, groupId: string, running: boolean): Promise<GroupDoc> {
  return (await updateGroup(layout, groupId, (g) => void (g.running = running))).group;
}

const SECRET_KEY = /token|secret|password|passwd|api[_-]?key|credential|private/i;

/**
 * `group_show`: the group.yaml content with secret-looking values replaced by `******` (IM bot
 * tokens and the like). Actor env values are public configuration and stay; private env lives
 * elsewhere and is never here.
 */
export function redactGroup(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redactGroup(v, parentKey));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) && typeof v === 'string' && v !== '' ? '******' : redactGroup(v, key);
    }
    return out;
  }
  return value;
}

export function showGroup(layout: HomeLayout, groupId: string): { group: Record<string, unknown> } {
  return { group: redactGroup(loadGroup(layout, groupId)) as Record<string, unknown> };
}
