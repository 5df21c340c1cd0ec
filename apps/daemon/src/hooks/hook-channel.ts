import type { HomeLayout } from '@cccc/groups';
import type { ActivityEntry, HookState, LaunchRecord } from '@cccc/hook-fence';
import {
  activityStoreCodec,
  activityStorePath,
  hookStateCodec,
  hookStatePath,
  launchRecordCodec,
  launchRecordPath,
  type ActivityStoreRead,
  type HookRuntimeName,
} from './hook-files.js';
import { OwnedFile, type FileCodec } from './owned-file.js';

/**
 * The one owner of the hook channel's live state in the daemon: each actor's hook state and
 * launch record and each group's runtime activity, held in memory and written through to the
 * files the spec names (REFERENCE_NOTES §2/§5). Each file is read on its first use (the durable
 * record a previous daemon left) and after someone else changed it, never to learn back a write
 * of this daemon. Writers hold the locks of hook-files.ts (the actor's hook lock; the group's
 * activity lock for the activity store); readers need none.
 */
export class HookChannel {
  private readonly files = new Map<string, OwnedFile<unknown, never>>();

  constructor(private readonly layout: HomeLayout) {}

  /** The launch record, or null when missing or corrupt (the caller fails closed). */
  launchRecord(gid: string, aid: string): Promise<LaunchRecord | null> {
    return this.launchFile(gid, aid).get();
  }

  writeLaunchRecord(record: LaunchRecord): Promise<void> {
    return this.launchFile(record.group_id, record.actor_id).set(record);
  }

  removeLaunchRecord(gid: string, aid: string): Promise<void> {
    return this.launchFile(gid, aid).remove();
  }

  /** The hook state, or null when missing or corrupt (the caller fails closed). */
  hookState(runtime: HookRuntimeName, gid: string, aid: string): Promise<HookState | null> {
    return this.stateFile(runtime, gid, aid).get();
  }

  writeHookState(state: HookState): Promise<void> {
    return this.stateFile(state.runtime, state.group_id, state.actor_id).set(state);
  }

  removeHookState(runtime: HookRuntimeName, gid: string, aid: string): Promise<void> {
    return this.stateFile(runtime, gid, aid).remove();
  }

  /** All entries, or `runtime_activity_unavailable` for a corrupt store (never a partial view). */
  activity(gid: string): Promise<ActivityStoreRead> {
    return this.activityFile(gid).get();
  }

  writeActivity(gid: string, entries: readonly ActivityEntry[]): Promise<void> {
    return this.activityFile(gid).set({ entries: [...entries] });
  }

  private launchFile(gid: string, aid: string) {
    return this.file(launchRecordPath(this.layout, gid, aid), launchRecordCodec);
  }

  private stateFile(runtime: HookRuntimeName, gid: string, aid: string) {
    return this.file(hookStatePath(this.layout, runtime, gid, aid), hookStateCodec);
  }

  private activityFile(gid: string) {
    return this.file(activityStorePath(this.layout, gid), activityStoreCodec);
  }

  private file<T, W extends T>(path: string, codec: FileCodec<T, W>): OwnedFile<T, W> {
    let file = this.files.get(path) as OwnedFile<T, W> | undefined;
    if (!file) {
      file = new OwnedFile(path, codec);
      this.files.set(path, file as unknown as OwnedFile<unknown, never>);
    }
    return file;
  }
}
