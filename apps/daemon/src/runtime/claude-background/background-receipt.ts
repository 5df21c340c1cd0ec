import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import type { HomeLayout } from '@cccc/groups';
import { clearResumeFailure } from './resume-failure.js';

/**
 * `groups/<gid>/state/runners/claude-background/<actor_id>.json`: the version-2 receipt of an
 * actor's Claude background session (§8.4). It names the exact provider session and its Agent
 * View job, and the launch identity it was started with; a start resumes it only when runtime,
 * workspace, command, actor generation, Claude storage and launch identity all still match.
 * Legacy hook/print-mode state never parses as one. It survives stop and daemon exit;
 * actor_new_session drops it (and the settings file beside it).
 */
export const ClaudeBackgroundReceipt = z.object({
  v: z.literal(2),
  runtime: z.literal('claude'),
  /** The provider session (transcript) id. */
  session_id: z.string().uuid(),
  /** The Agent View job's short id (`claude attach`/`stop` take it). */
  job_id: z.string().regex(/^[0-9a-f]{8}$/),
  cwd: z.string(),
  /** The actor's command as configured (before CCCC's wiring). */
  command: z.array(z.string()),
  actor_generation: z.string(),
  /** The Claude config dir the job lives in (CLAUDE_CONFIG_DIR, else $HOME/.claude). */
  storage: z.string(),
  /** sha256 of the background launch (flags and settings content, per-launch wiring excluded). */
  launch_identity: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
});
export type ClaudeBackgroundReceipt = z.infer<typeof ClaudeBackgroundReceipt>;

export type ClaudeBackgroundIdentity = Pick<ClaudeBackgroundReceipt, 'cwd' | 'command' | 'actor_generation' | 'storage' | 'launch_identity'>;

const dir = (layout: HomeLayout, groupId: string): string => join(layout.groupDir(groupId), 'state', 'runners', 'claude-background');

export function claudeBackgroundReceiptPath(layout: HomeLayout, groupId: string, actorId: string): string {
  return join(dir(layout, groupId), `${actorId}.json`);
}

/** The stable, owner-scoped settings file the job's respawn metadata points at (mode 0600). */
export function claudeBackgroundSettingsPath(layout: HomeLayout, groupId: string, actorId: string): string {
  return join(dir(layout, groupId), `${actorId}.settings.json`);
}

/** Where a Claude launch keeps its jobs and transcripts. */
export function claudeStorage(env: Readonly<Record<string, string>>): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME ?? '', '.claude');
}

export function readClaudeBackgroundReceipt(layout: HomeLayout, groupId: string, actorId: string): ClaudeBackgroundReceipt | undefined {
  try {
    const parsed = ClaudeBackgroundReceipt.safeParse(JSON.parse(readFileSync(claudeBackgroundReceiptPath(layout, groupId, actorId), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeClaudeBackgroundReceipt(layout: HomeLayout, groupId: string, actorId: string, receipt: ClaudeBackgroundReceipt): void {
  // Durable and owner-only: a daemon restarted after kill -9 resumes from it.
  writeFileAtomicSync(claudeBackgroundReceiptPath(layout, groupId, actorId), JSON.stringify(ClaudeBackgroundReceipt.parse(receipt)) + '\n', 0o600);
}

/**
 * Atomically replaces the settings file (it holds the launch's environment, so owner-only). An
 * ordinary stop keeps it: the resumable job's respawn metadata names it.
 */
export function writeClaudeBackgroundSettings(layout: HomeLayout, groupId: string, actorId: string, settings: Record<string, unknown>): string {
  const path = claudeBackgroundSettingsPath(layout, groupId, actorId);
  writeFileAtomicSync(path, JSON.stringify(settings) + '\n', 0o600);
  return path;
}

/** The session identity is retired (actor_new_session, actor or group removal): receipt and settings go. */
export function removeClaudeBackgroundState(layout: HomeLayout, groupId: string, actorId: string): void {
  rmSync(claudeBackgroundReceiptPath(layout, groupId, actorId), { force: true });
  rmSync(claudeBackgroundSettingsPath(layout, groupId, actorId), { force: true });
  clearResumeFailure(layout, groupId, actorId);
}

export function claudeReceiptMatches(receipt: ClaudeBackgroundReceipt | undefined, identity: ClaudeBackgroundIdentity): boolean {
  return (
    receipt !== undefined &&
    receipt.cwd === identity.cwd &&
    receipt.actor_generation === identity.actor_generation &&
    receipt.storage === identity.storage &&
    receipt.launch_identity === identity.launch_identity &&
    receipt.command.length === identity.command.length &&
    receipt.command.every((a, i) => a === identity.command[i])
  );
}
