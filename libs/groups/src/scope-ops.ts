import { existsSync } from 'node:fs';
import { utcNowIso } from './clock.js';
import { groupError } from './errors.js';
import { groupExists, loadGroup, updateGroup } from './group-store.js';
import { newScopeDocument } from './group-template.js';
import { createGroup } from './groups.js';
import type { HomeLayout } from './home-layout.js';
import { groupIdForScope } from './ids.js';
import { readRegistry, updateRegistry } from './registry-store.js';
import { detectScope, type ScopeIdentity } from './scope.js';
import type { GroupDoc } from './schemas/group.js';
import { applyPlainChange, newYamlDocument, readYamlDocument, writeYamlDocument } from './yaml-file.js';

export interface AttachResult {
  group_id: string;
  scope_key: string;
  title: string;
  /** True when attach created the group. */
  created: boolean;
  /** The `group.attach` event data the daemon appends. */
  scope: ScopeIdentity;
  group: GroupDoc;
}

function writeScopeFile(layout: HomeLayout, groupId: string, scope: ScopeIdentity): void {
  const path = layout.scopeYamlPath(groupId, scope.scope_key);
  const now = utcNowIso();
  if (!existsSync(path)) {
    writeYamlDocument(path, newYamlDocument(newScopeDocument(scope, now)));
    return;
  }
  const doc = readYamlDocument(path);
  const before = doc.toJS() as Record<string, unknown>;
  const after = { ...before, url: scope.url, label: scope.label, git_remote: scope.git_remote };
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  applyPlainChange(doc, before, { ...after, updated_at: now });
  writeYamlDocument(path, doc);
}

/**
 * `attach`: bind a directory's scope to a group and make it the active scope. Without
 * `groupId` the scope's default group is used, else a group is created with the deterministic
 * id `g_` + sha256(git remote or path)[:12]. A missing directory fails with `path_not_found`.
 */
export async function attachScope(layout: HomeLayout, input: { path: string; groupId?: string }): Promise<AttachResult> {
  const scope = detectScope(input.path);
  let groupId = input.groupId?.trim() ?? '';
  let created = false;
  if (groupId) {
    loadGroup(layout, groupId);
  } else {
    const mapped = readRegistry(layout).defaults[scope.scope_key];
    if (mapped && groupExists(layout, mapped)) {
      groupId = mapped;
    } else {
      groupId = groupIdForScope(scope.git_remote || scope.url);
      if (!groupExists(layout, groupId)) {
        await createGroup(layout, { groupId, title: scope.label });
        created = true;
      }
    }
  }
  const { group } = await updateGroup(layout, groupId, (g) => {
    const ref = { scope_key: scope.scope_key, url: scope.url, label: scope.label, git_remote: scope.git_remote };
    const index = g.scopes.findIndex((s) => s.scope_key === scope.scope_key);
    if (index >= 0) g.scopes[index] = { ...g.scopes[index], ...ref };
    else g.scopes.push(ref);
    g.active_scope_key = scope.scope_key;
  });
  writeScopeFile(layout, groupId, scope);
  await updateRegistry(layout, (registry) => {
    const entry = registry.groups[groupId];
    if (entry && !entry.default_scope_key) entry.default_scope_key = scope.scope_key;
    if (entry) entry.updated_at = group.updated_at;
    if (!registry.defaults[scope.scope_key] || !groupExists(layout, registry.defaults[scope.scope_key]!)) {
      registry.defaults[scope.scope_key] = groupId;
    }
  });
  return { group_id: groupId, scope_key: scope.scope_key, title: group.title, created, scope, group };
}

/** `group_detach_scope`: the scope leaves the group; the active scope falls back to the first remaining one. */
export async function detachScope(
  layout: HomeLayout,
  groupId: string,
  scopeKey: string,
): Promise<{ group: GroupDoc; scope_key: string }> {
  const { group } = await updateGroup(layout, groupId, (g) => {
    const index = g.scopes.findIndex((s) => s.scope_key === scopeKey);
    if (index < 0) throw groupError('scope_not_attached', `scope ${scopeKey} is not attached to ${groupId}`, { scope_key: scopeKey });
    g.scopes.splice(index, 1);
    if (g.active_scope_key === scopeKey) g.active_scope_key = g.scopes[0]?.scope_key ?? '';
  });
  await updateRegistry(layout, (registry) => {
    if (registry.defaults[scopeKey] === groupId) delete registry.defaults[scopeKey];
    const entry = registry.groups[groupId];
    if (entry && entry.default_scope_key === scopeKey) entry.default_scope_key = group.scopes[0]?.scope_key ?? '';
  });
  return { group, scope_key: scopeKey };
}

/** `group_use`: make an already-attached directory's scope the active one (`scope_not_attached`). */
export async function useScope(
  layout: HomeLayout,
  groupId: string,
  path: string,
): Promise<{ group: GroupDoc; active_scope_key: string; path: string }> {
  const scope = detectScope(path);
  const { group } = await updateGroup(layout, groupId, (g) => {
    if (!g.scopes.some((s) => s.scope_key === scope.scope_key)) {
      throw groupError('scope_not_attached', `${path} is not attached to ${groupId}; attach it first`, {
        scope_key: scope.scope_key,
        path: scope.url,
      });
    }
    g.active_scope_key = scope.scope_key;
  });
  return { group, active_scope_key: scope.scope_key, path: scope.url };
}

/** The active scope's root directory (for send_files and relative paths), or `no_active_scope`. */
export function activeScopeRoot(group: GroupDoc): string {
  const scope = group.scopes.find((s) => s.scope_key === group.active_scope_key);
  if (!scope || !scope.url) {
    throw groupError('no_active_scope', `group ${group.group_id} has no active scope; attach a directory first`, {
      group_id: group.group_id,
    });
  }
  return scope.url;
}
