import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeLayout } from '@cccc/groups';
import { type AgentViewContext, AgentViewError, findJob, listJobs, resumeBackground, startBackground, stopJob, waitJobAbsent } from './agent-view-cli.js';
import { backgroundSessionName, type BackgroundLaunch, workerVersionProblem } from './background-plan.js';
import {
  claudeReceiptMatches,
  type ClaudeBackgroundIdentity,
  type ClaudeBackgroundReceipt,
  readClaudeBackgroundReceipt,
  removeClaudeBackgroundState,
  writeClaudeBackgroundReceipt,
} from './background-receipt.js';

// Start-or-resume of one actor's Claude background session, in the three steps the launch
// sequence needs: `prepare` (outside the actor's hook lock: the receipt decision, a live job of
// the receipt retired so its worker re-reads the refreshed settings), `launch` (inside the lock,
// right before the PTY spawn: `claude --bg`, whose worker fires SessionStart), `confirm` (after:
// the exact provider session identified and the receipt written durably).

/** How long a stop waits for Agent View to confirm the job is gone. */
export const JOB_ABSENT_TIMEOUT_MS = 15_000;

export class ClaudeBackgroundError extends Error {
  constructor(
    /** `resume_failed`: the recorded session could not be continued as itself (never replaced silently); `start_failed`. */
    readonly code: 'resume_failed' | 'start_failed' | 'stop_unconfirmed' | 'workspace_untrusted',
    message: string,
  ) {
    super(message);
    this.name = 'ClaudeBackgroundError';
  }
}

export interface BackgroundOwner {
  readonly layout: HomeLayout;
  readonly groupId: string;
  readonly actorId: string;
}

/** One actor's live background session, as this daemon owns it. */
export interface BackgroundJob {
  readonly ctx: AgentViewContext;
  readonly jobId: string;
  readonly sessionId: string;
  readonly resumed: boolean;
}

export interface PreparedStart {
  /** The receipt being resumed, or undefined for a fresh session. */
  readonly resume: ClaudeBackgroundReceipt | undefined;
  launch(): Promise<string>;
}

const wrap = (code: ClaudeBackgroundError['code'], what: string) => (error: unknown) => {
  // A trust refusal is not a resume failure (the session was never tried): it keeps its own code.
  if (error instanceof AgentViewError && error.code === 'workspace_untrusted') throw new ClaudeBackgroundError('workspace_untrusted', error.message);
  throw new ClaudeBackgroundError(code, `${what}: ${error instanceof Error ? error.message : String(error)}`);
};

export async function prepareBackgroundStart(owner: BackgroundOwner, ctx: AgentViewContext, launch: BackgroundLaunch, identity: ClaudeBackgroundIdentity): Promise<PreparedStart> {
  const receipt = readClaudeBackgroundReceipt(owner.layout, owner.groupId, owner.actorId);
  const matches = claudeReceiptMatches(receipt, identity);
  if (receipt && !matches) {
    // A changed launch identity selects a fresh conversation (§8.4); the old job is CCCC's and
    // must not outlive its receipt. Its history stays with the provider.
    const old = await findJob(ctx, receipt.job_id).catch(() => undefined);
    if (old && old.sessionId === receipt.session_id) {
      await discardJob(ctx, receipt.job_id);
    }
  }
  const resume = matches ? receipt : undefined;
  if (resume) {
    const live = await findJob(ctx, resume.job_id).catch(wrap('start_failed', 'Agent View job list unavailable'));
    if (live && live.sessionId !== resume.session_id) throw new ClaudeBackgroundError('resume_failed', `job ${resume.job_id} now runs another session`);
    if (live) {
      // A live worker keeps the environment it started with (the settings file is read at
      // worker start, not watched): it is stopped and the same session resumed, so its hooks
      // carry this launch's token.
      await stopJob(ctx, resume.job_id).catch(wrap('start_failed', 'could not stop the live job to re-adopt it'));
      if (!(await waitJobAbsent(ctx, resume.job_id, JOB_ABSENT_TIMEOUT_MS))) throw new ClaudeBackgroundError('start_failed', `job ${resume.job_id} did not stop`);
    }
  }
  return {
    resume,
    launch: () =>
      resume
        ? resumeBackground(ctx, resume.session_id).catch(wrap('resume_failed', `claude --bg --resume of session ${resume.session_id} failed`))
        : startBackground(ctx, [...launch.args, '--name', backgroundSessionName(owner.groupId, owner.actorId)]).catch(wrap('start_failed', 'claude --bg failed')),
  };
}

/**
 * Stops a job CCCC will not adopt, until Agent View no longer lists it, so a failed start answers
 * only once nothing of it runs. A job `claude --bg` just printed can still be registering (a stop
 * sent then is lost and it shows up a moment later), and a worker busy starting its turn may not
 * act on a stop for a while: its absence is confirmed twice, a second apart, and a job still
 * listed a few seconds after a stop has its worker process ended.
 */
async function discardJob(ctx: AgentViewContext, jobId: string): Promise<void> {
  const deadline = Date.now() + JOB_ABSENT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await stopJob(ctx, jobId).catch(() => undefined);
    if (await waitJobAbsent(ctx, jobId, Math.min(STOP_GRACE_MS, Math.max(0, deadline - Date.now())))) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (!(await findJob(ctx, jobId).catch(() => undefined))) return;
      continue;
    }
    const pid = (await findJob(ctx, jobId).catch(() => undefined))?.pid;
    if (pid !== undefined) killQuietly(pid);
  }
}

/** How long a stopped job may stay listed before its worker process is ended. */
const STOP_GRACE_MS = 3000;

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * After `launch`: the job must be the receipt's exact session (a resume that came back under
 * another id is a copy: it is stopped and the start fails, never adopted), then the receipt is
 * written before anything is delivered.
 */
export async function confirmBackgroundStart(
  owner: BackgroundOwner,
  ctx: AgentViewContext,
  prepared: PreparedStart,
  jobId: string,
  identity: ClaudeBackgroundIdentity,
): Promise<BackgroundJob> {
  const { resume } = prepared;
  if (resume && jobId !== resume.job_id) {
    await discardJob(ctx, jobId);
    throw new ClaudeBackgroundError('resume_failed', `resuming session ${resume.session_id} started a copy (${jobId}) instead of job ${resume.job_id}`);
  }
  const jobs = await listJobs(ctx).catch(wrap('start_failed', 'Agent View job list unavailable'));
  const job = jobs.find((j) => j.id === jobId);
  if (!job || job.kind !== 'background') {
    await discardJob(ctx, jobId);
    throw new ClaudeBackgroundError(resume ? 'resume_failed' : 'start_failed', `job ${jobId} is not listed as a background session`);
  }
  if (resume && job.sessionId !== resume.session_id) {
    await discardJob(ctx, jobId);
    throw new ClaudeBackgroundError('resume_failed', `job ${jobId} runs session ${job.sessionId}, not ${resume.session_id}`);
  }
  const versionProblem = await liveWorkerVersionProblem(ctx, identity.storage, job);
  if (versionProblem) {
    await discardJob(ctx, jobId);
    throw new ClaudeBackgroundError('start_failed', `job ${jobId}: ${versionProblem}`);
  }
  const receipt: ClaudeBackgroundReceipt = resume ?? { v: 2, runtime: 'claude', session_id: job.sessionId, job_id: jobId, ...identity, command: [...identity.command], created_at: new Date().toISOString() };
  writeClaudeBackgroundReceipt(owner.layout, owner.groupId, owner.actorId, receipt);
  return { ctx, jobId, sessionId: job.sessionId, resumed: resume !== undefined };
}

/**
 * The worker's version check (§8.4: each observed live worker must report ≥ 2.1.259). Right
 * after `claude --bg` the job may be listed before its worker is: both are waited for briefly.
 */
async function liveWorkerVersionProblem(ctx: AgentViewContext, storage: string, job: { readonly sessionId: string; readonly id: string }): Promise<string | null> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pid = (await listJobs(ctx).catch(() => [])).find((j) => j.id === job.id)?.pid;
    let problem: string | null = 'Agent View lists no worker pid';
    if (pid !== undefined) {
      let text: string | undefined;
      try {
        text = readFileSync(join(storage, 'sessions', `${pid}.json`), 'utf8');
      } catch {
        text = undefined;
      }
      problem = workerVersionProblem(text, { sessionId: job.sessionId, jobId: job.id });
    }
    if (!problem || Date.now() > deadline) return problem;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Stops the job and answers only once Agent View confirms it absent; throws `stop_unconfirmed` otherwise. */
export async function stopBackgroundJob(job: BackgroundJob, timeoutMs = JOB_ABSENT_TIMEOUT_MS): Promise<void> {
  try {
    await stopJob(job.ctx, job.jobId);
  } catch (error) {
    // An already-gone job makes `claude stop` fail: absence is checked, not assumed.
    if (!(error instanceof AgentViewError)) throw error;
  }
  if (!(await waitJobAbsent(job.ctx, job.jobId, timeoutMs))) throw new ClaudeBackgroundError('stop_unconfirmed', `Agent View still lists job ${job.jobId}`);
}

export { removeClaudeBackgroundState };
