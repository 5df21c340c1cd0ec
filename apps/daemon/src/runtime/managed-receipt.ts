import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { join } from 'node:path';
import type { HomeLayout } from '@cccc/groups';

/**
 * `groups/<gid>/state/runners/managed/<actor_id>.json`: the version-2 managed receipt of an
 * actor's provider session (Codex: its thread). A start resumes the recorded thread only when
 * runtime, workspace, command and the actor generation still match; anything else (or a legacy
 * receipt) starts a fresh thread. It survives stop and daemon exit; actor_new_session drops it.
 */
/** Runtimes whose managed sessions leave receipts (issue 23: codex; issue 24: opencode). */
/** Acp-mode actors' receipts are apart from any native TUI receipt: their runtime is `<runtime>:acp`. */
export type ManagedReceiptRuntime = 'codex' | 'opencode' | 'kilo' | 'grok' | 'antigravity:acp' | 'copilot:acp' | 'devin:acp' | 'cursor:acp';
const RECEIPT_RUNTIMES: readonly string[] = ['codex', 'opencode', 'kilo', 'grok', 'antigravity:acp', 'copilot:acp', 'devin:acp', 'cursor:acp'];

export interface ManagedReceipt {
  readonly v: 2;
  readonly runtime: ManagedReceiptRuntime;
  readonly session_id: string;
  readonly cwd: string;
  readonly command: readonly string[];
  /** The actor generation the thread belongs to (actor.created_at). */
  readonly actor_generation: string;
  /** The effective provider storage the session lives in (Codex: CODEX_HOME; opencode: its data/config roots). */
  readonly storage: string;
  readonly created_at: string;
  /**
   * The thread has had its start-up prompt (an admitted turn carried it). One prompt per thread,
   * not per provider process: a thread resumed after a restart does not get it again.
   */
  readonly startup_prompt_sent?: true;
  /**
   * A prompt was attempted in the session (written before it is sent, unconfirmed deliveries
   * included). Providers that store no empty session (Copilot, Devin, Cursor) may start fresh
   * only without it; with it the same session must load or the start fails (§8.4).
   */
  readonly prompt_attempted?: true;
}

/** A v2 managed receipt, or undefined for anything else (legacy receipts are never resumed). */
function parseReceipt(value: unknown): ManagedReceipt | undefined {
  const r = value as Partial<ManagedReceipt> | null;
  if (!r || r.v !== 2 || !RECEIPT_RUNTIMES.includes(r.runtime ?? '') || typeof r.session_id !== 'string' || !r.session_id) return undefined;
  if (typeof r.cwd !== 'string' || !Array.isArray(r.command) || !r.command.every((a) => typeof a === 'string')) return undefined;
  if (typeof r.actor_generation !== 'string' || typeof r.storage !== 'string') return undefined;
  return {
    v: 2,
    runtime: r.runtime!,
    session_id: r.session_id,
    cwd: r.cwd,
    command: r.command,
    actor_generation: r.actor_generation,
    storage: r.storage,
    created_at: String(r.created_at ?? ''),
    ...(r.startup_prompt_sent === true ? { startup_prompt_sent: true as const } : {}),
    ...(r.prompt_attempted === true ? { prompt_attempted: true as const } : {}),
  };
}

function receiptPath(layout: HomeLayout, groupId: string, actorId: string): string {
  return join(layout.groupDir(groupId), 'state', 'runners', 'managed', `${actorId}.json`);
}

export function readManagedReceipt(layout: HomeLayout, groupId: string, actorId: string): ManagedReceipt | undefined {
  try {
    return parseReceipt(JSON.parse(readFileSync(receiptPath(layout, groupId, actorId), 'utf8')));
  } catch {
    return undefined;
  }
}

export function writeManagedReceipt(layout: HomeLayout, groupId: string, actorId: string, receipt: ManagedReceipt): void {
  // Durable (fsynced file and directory), owner-only: a daemon restarted after kill -9 reads it.
  writeFileAtomicSync(receiptPath(layout, groupId, actorId), JSON.stringify(receipt) + '\n', 0o600);
}

export function removeManagedReceipt(layout: HomeLayout, groupId: string, actorId: string): void {
  rmSync(receiptPath(layout, groupId, actorId), { force: true });
}

/** The identity a receipt must match to be resumed. */
export type ReceiptIdentity = Pick<ManagedReceipt, 'runtime' | 'cwd' | 'command' | 'actor_generation' | 'storage'>;

export function receiptMatches(receipt: ManagedReceipt | undefined, identity: ReceiptIdentity): receipt is ManagedReceipt {
  return (
    receipt !== undefined &&
    receipt.runtime === identity.runtime &&
    receipt.cwd === identity.cwd &&
    receipt.actor_generation === identity.actor_generation &&
    receipt.storage === identity.storage &&
    receipt.command.length === identity.command.length &&
    receipt.command.every((a, i) => a === identity.command[i])
  );
}

/** Records durably that the receipt's thread has had its start-up prompt (no-op when the receipt names another thread). */
export function markStartupPromptSent(layout: HomeLayout, groupId: string, actorId: string, sessionId: string): void {
  const receipt = readManagedReceipt(layout, groupId, actorId);
  if (!receipt || receipt.session_id !== sessionId || receipt.startup_prompt_sent) return;
  writeManagedReceipt(layout, groupId, actorId, { ...receipt, startup_prompt_sent: true });
}

/** Records durably, before the first prompt goes out, that the receipt's session had one attempted. */
export function markPromptAttempted(layout: HomeLayout, groupId: string, actorId: string, sessionId: string): void {
  const receipt = readManagedReceipt(layout, groupId, actorId);
  if (!receipt || receipt.session_id !== sessionId || receipt.prompt_attempted) return;
  writeManagedReceipt(layout, groupId, actorId, { ...receipt, prompt_attempted: true });
}
