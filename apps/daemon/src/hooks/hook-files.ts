import { join } from 'node:path';
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
import type { FileCodec } from './owned-file.js';

// Where the hook channel lives under CCCC_HOME (REFERENCE_NOTES §2/§5):
//   daemon/{claude,codex}-hook-state/<sha256(gid\0aid)>.json
//   daemon/runtime-hook-launch/<sha256(gid\0aid)>.json
//   groups/<gid>/state/runtime-activity/events.json
// Every write is atomic (tmp + fsync + rename + dir fsync); the daemon is the single writer, and
// HookChannel the one owner of these files in the daemon.

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

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The launch record, or null when missing or corrupt (the caller fails closed). */
export const launchRecordCodec: FileCodec<LaunchRecord | null, LaunchRecord> = {
  decode: (text) => decodeLaunchRecord(parseJson(text)),
  encode: (record) => JSON.stringify(record) + '\n',
  mode: 0o600,
};

/** The hook state, or null when missing or corrupt (the caller fails closed). */
export const hookStateCodec: FileCodec<HookState | null, HookState> = {
  decode: (text) => {
    const raw = parseJson(text);
    if (raw === null) return null;
    const decoded = decodeHookState(raw);
    return 'value' in decoded ? decoded.value : null;
  },
  encode: (state) => JSON.stringify(encodeHookState(state)) + '\n',
  mode: 0o600,
};

export type ActivityStoreRead = ReturnType<typeof decodeActivityStore>;

/** All entries, or `runtime_activity_unavailable` for a corrupt store (never a partial view). */
export const activityStoreCodec: FileCodec<ActivityStoreRead, { entries: ActivityEntry[] }> = {
  decode: decodeActivityStore,
  encode: (store) => encodeActivityStore(store.entries),
};
