import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { utcNowIso, type HomeLayout } from '@cccc/groups';
import type { ClaudeBackgroundReceipt } from './background-receipt.js';

// Spec §8.4 resume-failure bookkeeping for a Claude background session: a resume of the
// receipt's session that failed (the job gone and `--bg --resume` refused, or a copy came back)
// is recorded beside the receipt, which keeps the original provider session id. The record is
// fenced to that receipt (same session and job): it pauses automatic startup
// (runtime_session_status "resume_failed") until an explicit start resumes successfully or
// actor_new_session retires the receipt. Only CCCC's own one-line diagnostic goes in it, never
// provider output or credentials.

const MAX_ERROR_CHARS = 300;

export const ClaudeResumeFailure = z.object({
  v: z.literal(1),
  session_id: z.string().min(1),
  job_id: z.string().min(1),
  count: z.number().int().min(1),
  last_error: z.string().max(MAX_ERROR_CHARS),
  at: z.string(),
});
export type ClaudeResumeFailure = z.infer<typeof ClaudeResumeFailure>;

const path = (layout: HomeLayout, groupId: string, actorId: string): string =>
  join(layout.groupDir(groupId), 'state', 'runners', 'claude-background', `${actorId}.resume-failure.json`);

/** The failure recorded for exactly this receipt's session, else undefined (stale or malformed records do not count). */
export function readResumeFailure(layout: HomeLayout, groupId: string, actorId: string, receipt: ClaudeBackgroundReceipt | undefined): ClaudeResumeFailure | undefined {
  if (!receipt) return undefined;
  try {
    const parsed = ClaudeResumeFailure.safeParse(JSON.parse(readFileSync(path(layout, groupId, actorId), 'utf8')));
    return parsed.success && parsed.data.session_id === receipt.session_id && parsed.data.job_id === receipt.job_id ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** One more failed resume of the receipt's session (the count continues only for the same session). */
export function recordResumeFailure(layout: HomeLayout, groupId: string, actorId: string, receipt: ClaudeBackgroundReceipt, diagnostic: string): ClaudeResumeFailure {
  const previous = readResumeFailure(layout, groupId, actorId, receipt);
  const record: ClaudeResumeFailure = {
    v: 1,
    session_id: receipt.session_id,
    job_id: receipt.job_id,
    count: (previous?.count ?? 0) + 1,
    last_error: diagnostic.slice(0, MAX_ERROR_CHARS),
    at: utcNowIso(),
  };
  writeFileAtomicSync(path(layout, groupId, actorId), JSON.stringify(record) + '\n', 0o600);
  return record;
}

export function clearResumeFailure(layout: HomeLayout, groupId: string, actorId: string): void {
  rmSync(path(layout, groupId, actorId), { force: true });
}
