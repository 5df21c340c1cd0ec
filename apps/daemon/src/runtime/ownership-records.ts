import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeLayout } from '@cccc/groups';

/**
 * `groups/<gid>/state/runners/pty/<actor_id>.json`: the durable record of a process group this
 * daemon owns. It survives a kill -9 of the daemon, so the next one can retire the orphan.
 */
export interface PtyOwnershipRecord {
  readonly v: 1;
  /** `pty`: the actor's terminal; `codex_app_server` / `opencode_acp`: a managed actor's provider process (issues 23, 24). */
  readonly kind: OwnedKind;
  readonly group_id: string;
  readonly actor_id: string;
  /** Leader pid; node-pty makes it a session and process-group leader, so also the pgid. */
  readonly pid: number;
  readonly started_at: string;
  /** /proc/<pid>/stat field 22, or null where it cannot be read. */
  readonly pid_start_time: string | null;
}

export type OwnedKind = 'pty' | 'codex_app_server' | 'opencode_acp' | 'kilo_acp' | 'headless_acp' | 'grok_acp';
const KINDS: readonly OwnedKind[] = ['pty', 'codex_app_server', 'opencode_acp', 'kilo_acp', 'headless_acp', 'grok_acp'];

/** One file per owned process: `<actor>.json` for the terminal, `<actor>.<kind>.json` for others. */
function recordName(actorId: string, kind: OwnedKind): string {
  return kind === 'pty' ? actorId : `${actorId}.${kind}`;
}

export function runnersDir(layout: HomeLayout, groupId: string): string {
  return join(layout.groupDir(groupId), 'state', 'runners', 'pty');
}

export function recordPath(layout: HomeLayout, groupId: string, actorId: string, kind: OwnedKind = 'pty'): string {
  return join(runnersDir(layout, groupId), `${recordName(actorId, kind)}.json`);
}

export function writeOwnershipRecord(layout: HomeLayout, record: PtyOwnershipRecord): void {
  const dir = runnersDir(layout, record.group_id);
  mkdirSync(dir, { recursive: true });
  const path = recordPath(layout, record.group_id, record.actor_id, record.kind);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(record) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}

export function removeOwnershipRecord(layout: HomeLayout, groupId: string, actorId: string, kind: OwnedKind = 'pty'): void {
  rmSync(recordPath(layout, groupId, actorId, kind), { force: true });
}

function parseRecord(text: string): PtyOwnershipRecord | undefined {
  try {
    const r = JSON.parse(text) as Partial<PtyOwnershipRecord>;
    if (!KINDS.includes(r.kind as OwnedKind) || typeof r.pid !== 'number' || typeof r.group_id !== 'string' || typeof r.actor_id !== 'string') return undefined;
    return { v: 1, kind: r.kind as OwnedKind, group_id: r.group_id, actor_id: r.actor_id, pid: r.pid, started_at: String(r.started_at ?? ''), pid_start_time: r.pid_start_time ?? null };
  } catch {
    return undefined;
  }
}

/** Every record file under the home, with its path (unreadable ones come back without a record). */
export function listOwnershipRecords(layout: HomeLayout): Array<{ path: string; record: PtyOwnershipRecord | undefined }> {
  const out: Array<{ path: string; record: PtyOwnershipRecord | undefined }> = [];
  let groups: string[];
  try {
    groups = readdirSync(layout.groupsDir);
  } catch {
    return out;
  }
  for (const gid of groups) {
    const dir = runnersDir(layout, gid);
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const f of files) {
      const path = join(dir, f);
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        /* vanished */
      }
      out.push({ path, record: parseRecord(text) });
    }
  }
  return out;
}
