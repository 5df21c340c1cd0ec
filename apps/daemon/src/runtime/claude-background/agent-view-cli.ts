import { execFile } from 'node:child_process';
import { z } from 'zod';

// The thin IO shell around the pinned Claude Code's Agent View commands (2.1.328, verified by
// hand against the fake model): `claude --bg` prints `backgrounded · <short>` and returns while
// a per-config-dir supervisor (`claude daemon run`, its own session, reparented to init) runs the
// worker; `claude agents --json` lists the live jobs; `claude stop <short>` ends one. Every call is
// a finite command with a deadline and bounded output; nothing here signals a process itself.

const OUTPUT_LIMIT = 2_000_000;

/** One live job as `claude agents --json` prints it (only the fields CCCC relies on are required). */
export const AgentViewJob = z.object({
  id: z.string().min(1),
  sessionId: z.string().min(1),
  kind: z.string(),
  cwd: z.string().optional(),
  pid: z.number().int().optional(),
  name: z.string().optional(),
  status: z.string().optional(),
  state: z.string().optional(),
});
export type AgentViewJob = z.infer<typeof AgentViewJob>;
export const AgentViewJobList = z.array(AgentViewJob);

export class AgentViewError extends Error {
  constructor(
    /** `command_failed` (exit, timeout, oversized output), `invalid_response` (output not in the verified shape). */
    readonly code: 'command_failed' | 'invalid_response' | 'workspace_untrusted',
    message: string,
  ) {
    super(message);
    this.name = 'AgentViewError';
  }
}

export interface AgentViewContext {
  /** The resolved `claude` executable. */
  readonly exe: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

function run(ctx: AgentViewContext, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      ctx.exe,
      [...args],
      { cwd: ctx.cwd, env: ctx.env as NodeJS.ProcessEnv, timeout: ctx.timeoutMs ?? 15_000, maxBuffer: OUTPUT_LIMIT, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        // Only the subcommand and the exit go into the message: stderr may echo arguments.
        // The pinned CLI refuses `--bg` in a workspace whose trust prompt was never accepted, at
        // once and with this line ("Workspace not trusted. Run `claude` in <dir> once ..."):
        // recognised, so the start fails with what the operator must do, not a bare exit code.
        if (error && /workspace not trusted/i.test(`${String(stdout)}\n${String(stderr)}`)) {
          reject(new AgentViewError('workspace_untrusted', `claude ${args[0] ?? ''} refused: the workspace ${ctx.cwd} is not trusted by Claude Code`));
        } else if (error) reject(new AgentViewError('command_failed', `claude ${args[0] ?? ''} failed (${error.code ?? error.signal ?? 'error'})`));
        else resolve({ stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** The short job id in `claude --bg` output (`backgrounded · f4954836 …`). */
export function parseBackgroundedId(stdout: string): string | undefined {
  return /backgrounded\s+·\s+([0-9a-f]{8})\b/.exec(stdout)?.[1];
}

/** `claude --bg <args>`: the short id of the job it started (or continued). */
export async function startBackground(ctx: AgentViewContext, args: readonly string[]): Promise<string> {
  const { stdout } = await run(ctx, ['--bg', ...args]);
  const id = parseBackgroundedId(stdout);
  if (!id) throw new AgentViewError('invalid_response', 'claude --bg printed no background job id');
  return id;
}

/**
 * `claude --bg --resume <session id>` with no other flags: the pinned CLI then continues that
 * job under the same id with its saved options (any flag makes it start a copy under a new id).
 */
export function resumeBackground(ctx: AgentViewContext, sessionId: string): Promise<string> {
  return startBackground(ctx, ['--resume', sessionId]);
}

/** `claude agents --json`: the live jobs (interactive and background), validated. */
export async function listJobs(ctx: AgentViewContext): Promise<AgentViewJob[]> {
  const { stdout } = await run(ctx, ['agents', '--json']);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new AgentViewError('invalid_response', 'claude agents --json printed no JSON');
  }
  const jobs = AgentViewJobList.safeParse(parsed);
  if (!jobs.success) throw new AgentViewError('invalid_response', 'claude agents --json is not the verified job list shape');
  return jobs.data;
}

/** `claude stop <short>` (the conversation is kept; the job leaves the live list). */
export async function stopJob(ctx: AgentViewContext, shortId: string): Promise<void> {
  await run(ctx, ['stop', shortId]);
}

/**
 * Polls the live list until `shortId` is absent (true) or `timeoutMs` passes (false). A single
 * failed query is retried; only a confirmed absence counts.
 */
export async function waitJobAbsent(ctx: AgentViewContext, shortId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (!(await listJobs(ctx)).some((j) => j.id === shortId)) return true;
    } catch {
      // retried until the deadline
    }
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The live job with this short id, if any (a failed query throws: unknown is not absent). */
export async function findJob(ctx: AgentViewContext, shortId: string): Promise<AgentViewJob | undefined> {
  return (await listJobs(ctx)).find((j) => j.id === shortId);
}
