import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parse } from 'yaml';
import { utcNowIso } from '../clock.js';
import { groupExists } from '../group-store.js';
import { newScopeDocument } from '../group-template.js';
import type { HomeLayout } from '../home-layout.js';
import { newGroupId } from '../ids.js';
import { readRegistry, updateRegistry } from '../registry-store.js';
import { detectScope } from '../scope.js';
import { GroupDoc } from '../schemas/group.js';
import { newYamlDocument, writeYamlDocument } from '../yaml-file.js';
import { invalidGroupCopy } from './errors.js';
import { GROUP_PREFIX, GROUP_YAML_ENTRY, GroupCopyManifest, MANIFEST_ENTRY, isExcludedGroupPath, scrubGroupDocument } from './manifest.js';
import { drain, LARGE_PACKAGE_LIMITS, readAll, scanPackage, SMALL_PACKAGE_LIMITS, type PackageLimits, type PackageSource } from './package-reader.js';

// Preview and import of a copy package. Preview only reads. Import stages every kept entry in
// CCCC_HOME/state/group_copy/staging/<random>, validates the whole package, and only then
// renames the staged directory to groups/<new id> and registers it; any failure removes the
// staging directory, so a refused package leaves the home as it was.

const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_GROUP_YAML_BYTES = 16 * 1024 * 1024;

export interface PackageInput {
  readonly package_b64?: string | undefined;
  readonly package_path?: string | undefined;
}

/** Exactly one of package_b64 / package_path, resolved to a source and its limits. */
export function resolvePackageInput(input: PackageInput, limits?: { small?: PackageLimits; large?: PackageLimits }): { source: PackageSource; limits: PackageLimits } {
  const hasB64 = typeof input.package_b64 === 'string' && input.package_b64 !== '';
  const hasPath = typeof input.package_path === 'string' && input.package_path !== '';
  if (hasB64 === hasPath) throw invalidGroupCopy('bad_arguments', 'exactly one of package_b64 or package_path is required');
  if (hasB64) {
    const b64 = input.package_b64!.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw invalidGroupCopy('bad_base64', 'package_b64 is not base64');
    return { source: { buffer: Buffer.from(b64, 'base64') }, limits: limits?.small ?? SMALL_PACKAGE_LIMITS };
  }
  const path = resolve(input.package_path!);
  let st;
  try {
    st = statSync(path);
  } catch {
    throw invalidGroupCopy('package_not_found', `package not found: ${input.package_path}`);
  }
  const lim = limits?.large ?? LARGE_PACKAGE_LIMITS;
  if (!st.isFile()) throw invalidGroupCopy('not_a_file', `package is not a regular file: ${input.package_path}`);
  if (st.size > lim.maxPackageBytes) throw invalidGroupCopy('package_too_large', `package is ${st.size} bytes; the limit is ${lim.maxPackageBytes}`);
  return { source: { path }, limits: lim };
}

function checkManifest(raw: Buffer | undefined): GroupCopyManifest {
  if (!raw) throw invalidGroupCopy('missing_manifest', `the package has no ${MANIFEST_ENTRY}`);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidGroupCopy('bad_manifest', `${MANIFEST_ENTRY} is not JSON`);
  }
  const m = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (m.kind !== 'cccc.group_copy') throw invalidGroupCopy('wrong_kind', `manifest kind is ${JSON.stringify(m.kind)}, not "cccc.group_copy"`);
  if (m.version !== 1) throw invalidGroupCopy('unsupported_version', `unsupported group copy version ${JSON.stringify(m.version)}`);
  if (m.workspace_included !== false) throw invalidGroupCopy('workspace_included', 'packages that include workspace files are not supported');
  if (m.contains_secrets !== false) throw invalidGroupCopy('contains_secrets', 'packages that declare secrets are refused');
  if (m.export_mode !== 'group_state_only') throw invalidGroupCopy('unsupported_export_mode', `unsupported export_mode ${JSON.stringify(m.export_mode)}`);
  const parsed = GroupCopyManifest.safeParse(json);
  if (!parsed.success) throw invalidGroupCopy('bad_manifest', `invalid manifest: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { path: parsed.error.issues[0]?.path.join('.') });
  return parsed.data;
}

function checkGroupYaml(raw: Buffer | undefined, manifest: GroupCopyManifest): GroupDoc {
  if (!raw) throw invalidGroupCopy('missing_group_yaml', `the package has no ${GROUP_YAML_ENTRY}`);
  let doc: unknown;
  try {
    doc = parse(raw.toString('utf8'), { maxAliasCount: 100 });
  } catch {
    throw invalidGroupCopy('bad_group_yaml', `${GROUP_YAML_ENTRY} is not valid YAML`);
  }
  const parsed = GroupDoc.safeParse(scrubGroupDocument((doc ?? {}) as Record<string, unknown>));
  if (!parsed.success) throw invalidGroupCopy('bad_group_yaml', `${GROUP_YAML_ENTRY} is not a valid group: ${parsed.error.issues[0]?.message ?? ''}`);
  if (parsed.data.group_id !== manifest.source_group_id) {
    throw invalidGroupCopy('group_id_mismatch', `group.yaml names ${parsed.data.group_id}, the manifest ${manifest.source_group_id}`);
  }
  return parsed.data;
}

function checkDigest(manifest: GroupCopyManifest, digest: string): void {
  if (manifest.content_digest && manifest.content_digest !== digest) {
    throw invalidGroupCopy('digest_mismatch', 'the package content does not match its manifest content_digest');
  }
}

export type GroupCopyPreview = {
  manifest: Record<string, unknown>;
  source_group_id: string;
  source_title: string;
  actor_count: number;
  actors: Array<Record<string, unknown>>;
  source_workspace_root: string;
  workspace_root_exists: boolean;
  group_id_conflict: boolean;
  target_default_scope_conflict: boolean;
  requires_reconnect: Record<string, boolean>;
  workspace_included: false;
  contains_secrets: false;
  runtime_reset: Record<string, unknown>;
  warnings: string[];
};

function activeRoot(group: GroupDoc): string {
  return group.scopes.find((s) => s.scope_key === group.active_scope_key)?.url ?? '';
}

function idTaken(layout: HomeLayout, groupId: string): boolean {
  return groupExists(layout, groupId) || existsSync(layout.groupDir(groupId)) || Object.hasOwn(readRegistry(layout).groups, groupId);
}

function buildPreview(layout: HomeLayout, manifest: GroupCopyManifest, group: GroupDoc): GroupCopyPreview {
  const root = activeRoot(group);
  const rootExists = root !== '' && existsSync(root);
  const conflict = idTaken(layout, group.group_id);
  const scopeOwner = group.active_scope_key ? readRegistry(layout).defaults[group.active_scope_key] : undefined;
  const scopeConflict = Boolean(scopeOwner && groupExists(layout, scopeOwner));
  const im = typeof (group as Record<string, unknown>).im === 'object' && (group as Record<string, unknown>).im !== null;
  const warnings: string[] = [];
  if (conflict) warnings.push(`group ${group.group_id} already exists here; the import will get a new group id`);
  if (!root) warnings.push('the group has no active workspace scope');
  else if (!rootExists) warnings.push(`the source workspace root ${root} does not exist here; pass workspace_root to remap it`);
  if (scopeConflict) warnings.push(`the workspace scope ${group.active_scope_key} is already the default of group ${scopeOwner}; it stays so`);
  if (im) warnings.push('IM bridge credentials are not copied; reconnect the IM bridge after import');
  if (group.actors.length > 0) warnings.push('actor private environment and profile secrets are not copied; set them again before starting actors');
  return {
    manifest,
    source_group_id: group.group_id,
    source_title: group.title,
    actor_count: group.actors.length,
    actors: group.actors.map((a) => ({ id: a.id, title: a.title, runtime: a.runtime, runner: a.runner, enabled: a.enabled })),
    source_workspace_root: root,
    workspace_root_exists: rootExists,
    group_id_conflict: conflict,
    target_default_scope_conflict: scopeConflict,
    requires_reconnect: { im, actor_private_env: group.actors.length > 0 },
    workspace_included: false,
    contains_secrets: false,
    runtime_reset: { running: false, state: 'idle' },
    warnings,
  };
}

/** `group_copy_preview_import`: validate the whole package and describe the import; writes nothing. */
export async function previewGroupCopy(layout: HomeLayout, input: PackageInput, limits?: { small?: PackageLimits; large?: PackageLimits }): Promise<{ preview: GroupCopyPreview }> {
  const { source, limits: lim } = resolvePackageInput(input, limits);
  let manifestRaw: Buffer | undefined;
  let groupYamlRaw: Buffer | undefined;
  const scan = await scanPackage(source, lim, async (entry, data) => {
    if (entry.name === MANIFEST_ENTRY) manifestRaw = await readAll(data, MAX_MANIFEST_BYTES, entry.name);
    else if (entry.name === GROUP_YAML_ENTRY) groupYamlRaw = await readAll(data, MAX_GROUP_YAML_BYTES, entry.name);
    else await drain(data);
  });
  const manifest = checkManifest(manifestRaw);
  checkDigest(manifest, scan.contentDigest);
  return { preview: buildPreview(layout, manifest, checkGroupYaml(groupYamlRaw, manifest)) };
}

export interface ImportOptions {
  readonly workspace_root?: string | undefined;
  readonly title?: string | undefined;
}

export interface GroupCopyImportResult {
  group_id: string;
  source_group_id: string;
  group_id_conflict: boolean;
  workspace_root: string;
  active_scope_key: string;
}

/** `group_copy_import`: stage, validate, then move into groups/<id> and register. */
export async function importGroupCopy(
  layout: HomeLayout,
  input: PackageInput & ImportOptions,
  limits?: { small?: PackageLimits; large?: PackageLimits },
): Promise<GroupCopyImportResult> {
  const { source, limits: lim } = resolvePackageInput(input, limits);
  const title = input.title?.trim();
  // Remap target first: a bad workspace_root is refused before anything is staged.
  const remap = input.workspace_root ? detectScope(input.workspace_root) : undefined;
  const staging = join(stagingRoot(layout), randomBytes(8).toString('hex'));
  const firstCreated = mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    let manifestRaw: Buffer | undefined;
    let groupYamlRaw: Buffer | undefined;
    const scan = await scanPackage(source, lim, async (entry, data) => {
      if (entry.name === MANIFEST_ENTRY) return void (manifestRaw = await readAll(data, MAX_MANIFEST_BYTES, entry.name));
      if (entry.name === GROUP_YAML_ENTRY) return void (groupYamlRaw = await readAll(data, MAX_GROUP_YAML_BYTES, entry.name));
      const rel = entry.name.slice(GROUP_PREFIX.length);
      if (isExcludedGroupPath(rel)) return drain(data);
      const target = resolve(staging, rel);
      if (!target.startsWith(staging + sep)) throw invalidGroupCopy('path_traversal', `entry escapes the package: ${entry.name}`);
      mkdirSync(dirname(target), { recursive: true });
      await pipeline(data, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
    });
    const manifest = checkManifest(manifestRaw);
    checkDigest(manifest, scan.contentDigest);
    const source_group = checkGroupYaml(groupYamlRaw, manifest);
    const conflict = idTaken(layout, source_group.group_id);
    let groupId = source_group.group_id;
    while (idTaken(layout, groupId)) groupId = newGroupId();
    const now = utcNowIso();
    const group: Record<string, unknown> = { ...source_group, group_id: groupId, running: false, state: 'idle', updated_at: now };
    if (title) group.title = title;
    let scopes = source_group.scopes;
    let activeKey = source_group.active_scope_key;
    if (remap) {
      const ref = { scope_key: remap.scope_key, url: remap.url, label: remap.label, git_remote: remap.git_remote };
      scopes = [...scopes.filter((s) => s.scope_key !== source_group.active_scope_key && s.scope_key !== remap.scope_key), ref];
      activeKey = remap.scope_key;
      const scopePath = join(staging, 'scopes', remap.scope_key, 'scope.yaml');
      mkdirSync(dirname(scopePath), { recursive: true });
      writeYamlDocument(scopePath, newYamlDocument(newScopeDocument(remap, now)));
    }
    group.scopes = scopes;
    group.active_scope_key = activeKey;
    GroupDoc.parse(group);
    writeYamlDocument(join(staging, 'group.yaml'), newYamlDocument(group));
    const workspaceRoot = scopes.find((s) => s.scope_key === activeKey)?.url ?? '';
    mkdirSync(layout.groupsDir, { recursive: true });
    renameSync(staging, layout.groupDir(groupId));
    await updateRegistry(layout, (registry) => {
      registry.groups[groupId] = {
        group_id: groupId,
        title: String(group.title),
        topic: String(group.topic ?? ''),
        path: layout.groupDir(groupId),
        default_scope_key: activeKey,
        created_at: now,
        updated_at: now,
      };
      if (activeKey && (!registry.defaults[activeKey] || !groupExists(layout, registry.defaults[activeKey]!))) registry.defaults[activeKey] = groupId;
    });
    return { group_id: groupId, source_group_id: source_group.group_id, group_id_conflict: conflict, workspace_root: workspaceRoot, active_scope_key: activeKey };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    removeEmptyUpTo(stagingRoot(layout), firstCreated);
  }
}

/** Remove now-empty directories from `dir` upwards, up to the first one this import created. */
function removeEmptyUpTo(dir: string, firstCreated: string | undefined): void {
  if (!firstCreated) return;
  for (let d = dir; d.length >= firstCreated.length; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty: another import is staging, or the group directory tree is in use
    }
    if (d === firstCreated) return;
  }
}

/** Test helper for hostile-package tests: the staging directory's root. */
export function stagingRoot(layout: HomeLayout): string {
  return join(layout.stateDir, 'group_copy', 'staging');
}
