import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { join } from 'node:path';
import type { HomeLayout } from '@cccc/groups';

/**
 * `groups/<gid>/state/runners/managed/<actor_id>.status.json`: an actor's last self-reported
 * status (headless_set_status), durable across daemon restarts. It is bound to the provider
 * session (Codex thread) and the actor generation it was reported for: a resumed thread gets it
 * back; a fresh thread or a new actor generation with the same id never inherits it (spec §8.4).
 */
export interface SelfStatusRecord {
  readonly v: 1;
  readonly session_id: string;
  readonly actor_generation: string;
  readonly status: 'idle' | 'working' | 'waiting' | 'stopped';
  readonly task_id: string | null;
  readonly updated_at: string;
}

const STATUSES = new Set(['idle', 'working', 'waiting', 'stopped']);

function statusPath(layout: HomeLayout, groupId: string, actorId: string): string {
  return join(layout.groupDir(groupId), 'state', 'runners', 'managed', `${actorId}.status.json`);
}

/** Pure: the record's status when it belongs to this session and actor generation, else undefined. */
export function selfStatusFor(value: unknown, sessionId: string, actorGeneration: string): SelfStatusRecord | undefined {
  const r = value as Partial<SelfStatusRecord> | null;
  if (!r || r.v !== 1 || r.session_id !== sessionId || r.actor_generation !== actorGeneration) return undefined;
  if (typeof r.status !== 'string' || !STATUSES.has(r.status) || typeof r.updated_at !== 'string') return undefined;
  if (r.task_id !== null && typeof r.task_id !== 'string') return undefined;
  return { v: 1, session_id: sessionId, actor_generation: actorGeneration, status: r.status, task_id: r.task_id ?? null, updated_at: r.updated_at };
}

export function readSelfStatus(layout: HomeLayout, groupId: string, actorId: string, sessionId: string, actorGeneration: string): SelfStatusRecord | undefined {
  try {
    return selfStatusFor(JSON.parse(readFileSync(statusPath(layout, groupId, actorId), 'utf8')), sessionId, actorGeneration);
  } catch {
    return undefined;
  }
}

export function writeSelfStatus(layout: HomeLayout, groupId: string, actorId: string, record: SelfStatusRecord): void {
  // Durable (fsynced file and directory), owner-only: a daemon restarted after kill -9 reads it.
  writeFileAtomicSync(statusPath(layout, groupId, actorId), JSON.stringify(record) + '\n', 0o600);
}

export function removeSelfStatus(layout: HomeLayout, groupId: string, actorId: string): void {
  rmSync(statusPath(layout, groupId, actorId), { force: true });
}
