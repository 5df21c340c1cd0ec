import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@cccc/durable-fs';
import type { HomeLayout } from '@cccc/groups';
import {
  actorHookKey,
  decodeActivityStore,
  decodeHookState,
  decodeLaunchRecord,
  encodeActivityStore,
  encodeHookState,
  type ActivityEntry,
  type HookState,
  type LaunchRecord,
} from '@cccc/hook-fence';

// Where the hook channel lives under CCCC_HOME (REFERENCE_NOTES §2/§5):
//   daemon/{claude,codex}-hook-state/<sha256(gid\0aid)>.json
//   daemon/runtime-hook-launch/<sha256(gid\0aid)>.json
//   groups/<gid>/state/runtime-activity/events.json
// Every write is atomic (tmp + fsync + rename + dir fsync); the daemon is the single writer.

export type HookRuntimeName = 'claude' | 'codex';

/** The per-actor lock of hook state: hook events and the launch sequence take it. */
export const hookActorLockKey = (gid: string, aid: string): string => `hooks:${gid}:${aid}`;

/** The per-group lock of `runtime-activity/events.json` (taken inside an actor lock, never around one). */
export const activityLockKey = (gid: string): string => `hooks-activity:${gid}`;

export const hookStatePath = (layout: HomeLayout, runtime: HookRuntimeName, gid: string, aid: string): string =>
  join(layout.home, 'daemon', `${runtime}-hook-state`, `${actorHookKey(gid, aid)}.json`);

export const launchRecordPath = (layout: HomeLayout, gid: string, aid: string): string =>
  join(layout.home, 'daemon', 'runtime-hook-launch', `${actorHookKey(gid, aid)}.json`);

export const activityStorePath = (layout: HomeLayout, gid: string): string =>
  join(layout.groupDir(gid), 'state', 'runtime-activity', 'events.json');

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The launch record, or null when missing or corrupt (the caller fails closed). */
export async function readLaunchRecord(layout: HomeLayout, gid: string, aid: string): Promise<LaunchRecord | null> {
  return decodeLaunchRecord(parseJson(await readText(launchRecordPath(layout, gid, aid))));
}

export async function writeLaunchRecord(layout: HomeLayout, record: LaunchRecord): Promise<void> {
  await writeFileAtomic(launchRecordPath(layout, record.group_id, record.actor_id), JSON.stringify(record) + '\n', 0o600);
}

export async function removeLaunchRecord(layout: HomeLayout, gid: string, aid: string): Promise<void> {
  await rm(launchRecordPath(layout, gid, aid), { force: true });
}

/** The hook state, or null when missing or corrupt (the caller fails closed). */
export async function readHookState(layout: HomeLayout, runtime: HookRuntimeName, gid: string, aid: string): Promise<HookState | null> {
  const raw = parseJson(await readText(hookStatePath(layout, runtime, gid, aid)));
  if (raw === null) return null;
  const decoded = decodeHookState(raw);
  return 'value' in decoded ? decoded.value : null;
}

export async function writeHookState(layout: HomeLayout, state: HookState): Promise<void> {
  await writeFileAtomic(hookStatePath(layout, state.runtime, state.group_id, state.actor_id), JSON.stringify(encodeHookState(state)) + '\n', 0o600);
}

/** All entries, or `runtime_activity_unavailable` for a corrupt store (never a partial view). */
export async function readActivityStore(layout: HomeLayout, gid: string): Promise<ReturnType<typeof decodeActivityStore>> {
  return decodeActivityStore(await readText(activityStorePath(layout, gid)));
}

export async function writeActivityStore(layout: HomeLayout, gid: string, entries: readonly ActivityEntry[]): Promise<void> {
  await writeFileAtomic(activityStorePath(layout, gid), encodeActivityStore(entries));
}
