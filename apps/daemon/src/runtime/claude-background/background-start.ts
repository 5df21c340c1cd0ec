import { basename } from 'node:path';
import type { ActorDoc, HomeLayout } from '@cccc/groups';
import { IpcError, type ActorStartProblem } from '@cccc/ipc-protocol';
import type { LaunchCommand } from '@cccc/pty-runtime';
import { daemonError, DaemonErrorCodes } from '../../errors.js';
import type { Logger } from '../../log.js';
import { type AgentViewContext, findJob } from './agent-view-cli.js';
import { agentViewHelpProblem, backgroundLaunch, planClaudeBackground } from './background-plan.js';
import { ClaudeHelpProbe } from './help-probe.js';
import { claudeBackgroundSettingsPath, claudeStorage, type ClaudeBackgroundIdentity, readClaudeBackgroundReceipt, writeClaudeBackgroundSettings } from './background-receipt.js';
import { clearResumeFailure, type ClaudeResumeFailure, readResumeFailure, recordResumeFailure } from './resume-failure.js';
import { type BackgroundJob, ClaudeBackgroundError, confirmBackgroundStart, prepareBackgroundStart, stopBackgroundJob } from './background-session.js';

export type { BackgroundJob } from './background-session.js';

/** A background start decided and prepared: the launch runs under the hook lock, the confirm after the PTY spawn. */
export interface PreparedBackground {
  /** The PTY's command: `claude attach <job>` with the launch's executable. */
  attachArgv(jobId: string): string[];
  launch(): Promise<string>;
  confirm(jobId: string): Promise<BackgroundJob>;
}

export interface BackgroundDecision {
  readonly prepared?: PreparedBackground;
  /** The native PTY runs instead, and why (a start caveat; `runner_effective` stays `pty`). */
  readonly fallback?: ActorStartProblem;
}

/**
 * The actor-start side of Claude background sessions: decides background vs native PTY for a
 * direct claude launch, writes the owner-scoped settings file, prepares the start or resume, and
 * maps failures to the wire codes. The PTY spawn and hook sequence stay the service's.
 */
export class ClaudeBackgroundStarter {
  private readonly helpProbe = new ClaudeHelpProbe();

  constructor(
    private readonly layout: HomeLayout,
    private readonly logger: Logger,
    private readonly enabled: boolean,
  ) {}

  async prepare(input: {
    readonly groupId: string;
    readonly actor: ActorDoc;
    /** The launch composed without hooks (the actor's command and MCP wiring). */
    readonly plain: LaunchCommand;
    /** The launch as the PTY would run it natively (hooks included). */
    readonly launch: LaunchCommand;
    readonly hookEnabled: boolean;
    readonly versionOutput: string | undefined;
  }): Promise<BackgroundDecision> {
    if (basename(input.plain.argv[0] ?? '') !== 'claude') return {};
    const { groupId, actor, plain, launch } = input;
    const ids = { group_id: groupId, actor_id: actor.id };
    const plan = planClaudeBackground({ enabled: this.enabled, argv: plain.argv, versionOutput: input.versionOutput });
    const fallback = (code: string, message: string): BackgroundDecision => {
      this.logger.log('warn', 'claude actor runs in the native PTY, not a background session', { ...ids, code, diagnostic: message });
      return { fallback: { code, message } };
    };
    if (plan.mode === 'native') return plan.code === 'claude_background_disabled' ? {} : fallback(plan.code, plan.diagnostic);
    // The version passed; `--help` must also show Agent View (probed only now, so an older or
    // look-alike claude costs no second process).
    const helpProblem = agentViewHelpProblem(await this.helpProbe.help(input.launch.argv[0]!, input.launch.cwd, input.launch.env));
    if (helpProblem) return fallback(helpProblem.code, helpProblem.diagnostic);
    // Hooks are the background session's working-state and delivery evidence (they fire for its
    // turns); without them the session could not be observed.
    if (!input.hookEnabled) return fallback('claude_hooks_unavailable', 'no hook channel for this launch: a background session could not be observed');
    const settingsPath = claudeBackgroundSettingsPath(this.layout, groupId, actor.id);
    const bg = backgroundLaunch(launch.argv, launch.env, settingsPath);
    if (!bg) return fallback('claude_settings_unreadable', 'the launch settings are not a JSON object: they cannot go into the background settings file');
    writeClaudeBackgroundSettings(this.layout, groupId, actor.id, bg.settings);
    const ctx: AgentViewContext = { exe: launch.argv[0]!, cwd: launch.cwd, env: launch.env };
    const identity: ClaudeBackgroundIdentity = {
      cwd: launch.cwd,
      command: [...plain.argv],
      actor_generation: actor.created_at ?? '',
      storage: claudeStorage(launch.env),
      launch_identity: bg.identity,
    };
    const owner = { layout: this.layout, groupId, actorId: actor.id };
    let prepared;
    try {
      prepared = await prepareBackgroundStart(owner, ctx, bg, identity);
    } catch (error) {
      throw this.toIpcError(error, groupId, actor.id);
    }
    this.logger.log('info', 'claude background session prepared', { ...ids, resume_session_id: prepared.resume?.session_id ?? null });
    return {
      prepared: {
        attachArgv: (jobId) => [ctx.exe, 'attach', jobId],
        launch: prepared.launch,
        confirm: async (jobId) => {
          const job = await confirmBackgroundStart(owner, ctx, prepared, jobId, identity);
          // A successful start or resume clears the failure diagnostic and count (§8.4).
          clearResumeFailure(this.layout, groupId, actor.id);
          return job;
        },
      },
    };
  }

  /** Stops one job, answering only once it is confirmed absent (else `runtime_stop_failed`). */
  async stop(job: BackgroundJob, ids: { group_id: string; actor_id: string }): Promise<void> {
    try {
      await stopBackgroundJob(job);
    } catch (error) {
      this.logger.log('warn', 'claude background job stop not confirmed', { ...ids, job_id: job.jobId });
      if (error instanceof ClaudeBackgroundError) throw daemonError(DaemonErrorCodes.runtimeStopFailed, error.message, { actor_id: ids.actor_id, reason: error.code });
      throw error;
    }
    this.logger.log('info', 'claude background job stopped', { ...ids, job_id: job.jobId, session_id: job.sessionId });
  }

  /** Whether Agent View still lists the job: undefined when the query itself failed (unknown, not absent). */
  async jobLive(job: BackgroundJob): Promise<boolean | undefined> {
    try {
      return (await findJob(job.ctx, job.jobId)) !== undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The recorded resume failure that pauses automatic startup (§8.4), fenced to the current
   * receipt; undefined when the actor may start on its own.
   */
  resumePaused(groupId: string, actorId: string): ClaudeResumeFailure | undefined {
    return readResumeFailure(this.layout, groupId, actorId, readClaudeBackgroundReceipt(this.layout, groupId, actorId));
  }

  /** `actor_list`'s runtime_session_* fields: present only while a resume failure pauses the actor. */
  sessionStatus(groupId: string, actorId: string): { runtime_session_status?: 'resume_failed'; runtime_session_resume_eligible?: boolean; runtime_session_last_resume_error?: string } {
    const failure = this.resumePaused(groupId, actorId);
    return failure ? { runtime_session_status: 'resume_failed', runtime_session_resume_eligible: false, runtime_session_last_resume_error: failure.last_error } : {};
  }

  /** The paused automatic start's answer: claude_resume_failed, nothing launched. */
  pausedError(actorId: string, failure: ClaudeResumeFailure): IpcError {
    return daemonError(DaemonErrorCodes.claudeResumeFailed, `automatic start paused: resuming Claude session ${failure.session_id} failed (${failure.count}x): ${failure.last_error}`, {
      actor_id: actorId,
      reason: 'resume_failed',
    });
  }

  /** The wire error of a failed background start; a failed resume is also recorded against its receipt. */
  toIpcError(error: unknown, groupId: string, actorId: string): unknown {
    if (error instanceof IpcError || !(error instanceof ClaudeBackgroundError)) return error;
    if (error.code === 'resume_failed') {
      const receipt = readClaudeBackgroundReceipt(this.layout, groupId, actorId);
      if (receipt) {
        const failure = recordResumeFailure(this.layout, groupId, actorId, receipt, error.message);
        this.logger.log('warn', 'claude background resume failed', { group_id: groupId, actor_id: actorId, session_id: receipt.session_id, failure_count: failure.count });
      }
      return daemonError(DaemonErrorCodes.claudeResumeFailed, error.message, { actor_id: actorId, reason: error.code });
    }
    if (error.code === 'workspace_untrusted') {
      // Spec §8.4: CCCC never writes the trust decision. Until the interactive trust-recovery
      // terminal exists, the start fails at once with what the operator has to do.
      return daemonError(
        DaemonErrorCodes.runtimeStartFailed,
        `${error.message}: run \`claude\` in that directory once and accept the trust prompt, then start the actor again`,
        { actor_id: actorId, reason: 'claude_workspace_untrusted' },
      );
    }
    return daemonError(DaemonErrorCodes.runtimeStartFailed, error.message, { actor_id: actorId, reason: error.code });
  }
}
