import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { FileLock } from '@cccc/durable-fs';
import type { Document } from 'yaml';
import { ZodError } from 'zod';
import { utcNowIso } from './clock.js';
import { groupError } from './errors.js';
import type { HomeLayout } from './home-layout.js';
import { isSafeGroupId } from './ids.js';
import { GroupDoc } from './schemas/group.js';
import { applyPlainChange, newYamlDocument, parseYamlDocument, writeYamlDocument } from './yaml-file.js';

function assertGroupPathSafe(groupId: string): void {
  if (!isSafeGroupId(groupId)) throw groupError('group_not_found', `group not found: ${groupId}`, { group_id: groupId });
}

function parseGroup(groupId: string, raw: unknown): GroupDoc {
  try {
    return GroupDoc.parse(raw);
  } catch (err) {
    const issues = err instanceof ZodError ? err.issues.map((i) => `${i.path.join('.')}: ${i.message}`) : [String(err)];
    throw groupError('group_corrupt', `group.yaml of ${groupId} is invalid: ${issues[0] ?? ''}`, { group_id: groupId, issues });
  }
}

function loadDocument(layout: HomeLayout, groupId: string): Document {
  assertGroupPathSafe(groupId);
  const path = layout.groupYamlPath(groupId);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw groupError('group_not_found', `group not found: ${groupId}`, { group_id: groupId });
    }
    throw err;
  }
  try {
    return parseYamlDocument(text);
  } catch (err) {
    throw groupError('group_corrupt', `group.yaml of ${groupId} is not valid YAML`, { group_id: groupId, reason: String(err) });
  }
}

export function groupExists(layout: HomeLayout, groupId: string): boolean {
  return isSafeGroupId(groupId) && existsSync(layout.groupYamlPath(groupId));
}

/** The parsed group document (`group_not_found`, `group_corrupt`). */
export function loadGroup(layout: HomeLayout, groupId: string): GroupDoc {
  const doc = loadDocument(layout, groupId);
  const group = parseGroup(groupId, doc.toJS());
  if (group.group_id !== groupId) {
    throw groupError('group_corrupt', `group.yaml of ${groupId} names ${group.group_id}`, { group_id: groupId });
  }
  return group;
}

/**
 * Read-modify-write `group.yaml` under `group.yaml.lock`. `mutate` edits the parsed group; the
 * difference is then applied to the YAML document node by node, so unknown keys, comments and
 * untouched formatting survive. `updated_at` is bumped when anything changed.
 */
export async function updateGroup<R>(
  layout: HomeLayout,
  groupId: string,
  mutate: (group: GroupDoc) => R,
): Promise<{ group: GroupDoc; result: R; changed: boolean }> {
  assertGroupPathSafe(groupId);
  if (!existsSync(layout.groupYamlPath(groupId))) {
    throw groupError('group_not_found', `group not found: ${groupId}`, { group_id: groupId });
  }
  const lock = await FileLock.acquire(layout.groupYamlLockPath(groupId));
  try {
    const doc = loadDocument(layout, groupId);
    const before = parseGroup(groupId, doc.toJS());
    const group = structuredClone(before);
    const result = mutate(group);
    const validated = parseGroup(groupId, group);
    const changed = JSON.stringify(before) !== JSON.stringify(validated);
    if (changed) {
      validated.updated_at = utcNowIso();
      applyPlainChange(doc, before, validated);
      writeYamlDocument(layout.groupYamlPath(groupId), doc);
    }
    return { group: validated, result, changed };
  } finally {
    lock.release();
  }
}

/** Write a brand-new group.yaml (the caller guarantees the id is unused). */
export async function writeNewGroup(layout: HomeLayout, group: Record<string, unknown>): Promise<void> {
  const groupId = String(group.group_id);
  assertGroupPathSafe(groupId);
  mkdirSync(layout.groupDir(groupId), { recursive: true });
  const lock = await FileLock.acquire(layout.groupYamlLockPath(groupId));
  try {
    parseGroup(groupId, group);
    writeYamlDocument(layout.groupYamlPath(groupId), newYamlDocument(group));
  } finally {
    lock.release();
  }
}
