import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import type { ActorStartProblem } from '@cccc/ipc-protocol';
import { newLaunchToken, pendingHookState, type LaunchIdentity } from '@cccc/hook-fence';
import type { LaunchCommand } from '@cccc/pty-runtime';
import { utcNowIso } from '@cccc/groups';
import { claudeVersionSupportsHooks, claudeVersionSupportsHttpHooks, codexProbeArgv, hookCommand, type HookContributorOptions, type HookLauncher } from '../runtime/hook-contributor.js';
import type { HookChannel } from './hook-channel.js';
import { probeProblem, type ProbeOutcome } from './probe-outcome.js';
import { recordSessionIdentity } from './session-identity.js';

const VERSION_PROBE_TIMEOUT_MS = 3_000;

/**
 * `claude --version` ≥ 2.1.141, run with the launch's own environment and cwd. A probe that
 * fails or hangs means no hooks, and is reported as a start caveat (`version_probe_failed`).
 */
export function probeClaudeHooks(command: LaunchCommand): Promise<ProbeOutcome & { readonly httpHooks?: boolean; readonly versionOutput?: string }> {
  return new Promise((resolve) => {
    execFile(
      command.argv[0]!,
      ['--version'],
      { cwd: command.cwd, env: command.env as NodeJS.ProcessEnv, timeout: VERSION_PROBE_TIMEOUT_MS, maxBuffer: 64 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const problem = probeProblem('version_probe_failed', `${basename(command.argv[0]!)} --version`, VERSION_PROBE_TIMEOUT_MS, error, String(stdout), String(stderr));
          resolve(problem ? { supported: false, problem } : { supported: false });
        } else resolve({ supported: claudeVersionSupportsHooks(String(stdout)), httpHooks: claudeVersionSupportsHttpHooks(String(stdout)), versionOutput: String(stdout) });
      },
    );
  });
}

/**
 * `codex <config> <hook args> mcp list` (3 s): does this codex load the injected hooks? Run with
 * the launch's own environment and cwd, so it reads the configuration the agent will read. A
 * failure means no hooks (an older codex refuses the hook config), reported as a caveat.
 */
export function probeCodexHooks(command: LaunchCommand, hookCmd: string): Promise<ProbeOutcome> {
  const [exe, ...args] = codexProbeArgv(command.argv, hookCmd);
  return new Promise((resolve) => {
    execFile(
      exe!,
      args,
      { cwd: command.cwd, env: command.env as NodeJS.ProcessEnv, timeout: VERSION_PROBE_TIMEOUT_MS, maxBuffer: 256 * 1024 },
      (error, stdout, stderr) => {
        const problem = error && probeProblem('hook_probe_failed', `${basename(exe!)} … mcp list`, VERSION_PROBE_TIMEOUT_MS, error, String(stdout), String(stderr));
        resolve(problem ? { supported: false, problem } : { supported: !error });
      },
    );
  });
}

/** The hook part of one launch, and the caveat of a probe that failed (the launch goes on unhooked). */
export interface HookLaunchPlan {
  readonly options: HookContributorOptions | undefined;
  readonly probeProblem?: ActorStartProblem;
  /** What `claude --version` printed (the background-session version gate reads it); undefined when not probed or failed. */
  readonly claudeVersionOutput?: string;
}

/**
 * The hook part of one launch, decided before spawn from the launch composed without hooks:
 * a fresh token, and whether the direct `claude` (version-probed) or `codex` (pre-probed with
 * the hook arguments) launch gets hooks. No launcher (no CLI entry configured): no hooks.
 * `claudeHttpHookUrl` (the daemon's loopback hook listener, when on) turns a claude with http
 * hooks (≥ 2.1.63) to http hooks for the events that fire over http.
 */
export async function planHookLaunch(plain: LaunchCommand, launcher: HookLauncher | undefined, claudeHttpHookUrl?: string): Promise<HookLaunchPlan> {
  if (!launcher) return { options: undefined };
  const exe = basename(plain.argv[0] ?? '');
  const claude = exe === 'claude' ? await probeClaudeHooks(plain) : undefined;
  const codex = exe === 'codex' ? await probeCodexHooks(plain, hookCommand(launcher, 'codex')) : undefined;
  const httpUrl = claude?.httpHooks === true ? claudeHttpHookUrl : undefined;
  const options = {
    launcher,
    launchToken: newLaunchToken(),
    claudeHooksSupported: claude?.supported === true,
    codexHooksSupported: codex?.supported === true,
    ...(httpUrl ? { claudeHttpHookUrl: httpUrl } : {}),
  };
  const probeProblem = claude?.problem ?? codex?.problem;
  const version = claude?.versionOutput !== undefined ? { claudeVersionOutput: claude.versionOutput } : {};
  return probeProblem ? { options, probeProblem, ...version } : { options, ...version };
}

/** Recorded when a direct claude/codex launch could not be hooked (REFERENCE_NOTES §5.2). */
export const HOOK_UNAVAILABLE_DIAGNOSTIC = 'HookUnavailableSettings';

/** What the launch sequence records for one spawn: a hooked launch, an unhooked one, or nothing. */
export interface HookSpawnPlan {
  readonly runtime: 'claude' | 'codex';
  readonly launchToken: string;
  /** false: a direct claude/codex launch that runs without hooks (old version, failed probe). */
  readonly hookEnabled: boolean;
}

export function hookSpawnPlan(plain: LaunchCommand, launch: LaunchCommand, hooks: HookContributorOptions | undefined): HookSpawnPlan | null {
  if (!hooks) return null;
  const hooked = hookedRuntime(plain, launch);
  if (hooked) return { runtime: hooked, launchToken: hooks.launchToken, hookEnabled: true };
  const exe = basename(plain.argv[0] ?? '');
  if (exe === 'claude' || exe === 'codex') return { runtime: exe, launchToken: hooks.launchToken, hookEnabled: false };
  return null;
}

/** Which hooked runtime a composed launch is (the contributor changed its argv), else null. */
export function hookedRuntime(plain: LaunchCommand, launch: LaunchCommand): 'claude' | 'codex' | null {
  if (plain.argv.length === launch.argv.length && plain.argv.every((a, i) => a === launch.argv[i])) return null;
  const exe = basename(launch.argv[0] ?? '');
  return exe === 'claude' || exe === 'codex' ? exe : null;
}

/**
 * The launch sequence of REFERENCE_NOTES §5.2 around a synchronous spawn: the previous launch
 * record goes first (its token stops counting), a pending state awaiting this launch's
 * SessionStart, the spawn, then the launch record with the PTY child's pid. The caller holds the
 * actor's hook lock, so no hook event sees a half-written launch.
 *
 * An unhooked claude/codex launch is marked as such: a launch record with `hook_enabled: false`
 * (its token was never given to the agent) and no hook state of that runtime, so no state is
 * claimed from hooks and `runtime_hook_event` answers `no_hooked_launch`.
 */
export async function runHookedSpawn<T extends { pid: number } & object>(
  channel: HookChannel,
  ids: { groupId: string; actorId: string },
  hook: HookSpawnPlan | null,
  spawn: () => T,
  /**
   * Runs after the pending hook state is written and before the spawn, still under the caller's
   * hook lock: a Claude background session is started here, so the SessionStart its worker fires
   * waits for this launch's record instead of being refused.
   */
  beforeSpawn?: () => Promise<void>,
): Promise<T> {
  await channel.removeLaunchRecord(ids.groupId, ids.actorId);
  if (hook?.hookEnabled) {
    await channel.writeHookState(
      pendingHookState({ runtime: hook.runtime, groupId: ids.groupId, actorId: ids.actorId, launchToken: hook.launchToken, now: utcNowIso() }),
    );
  } else if (hook) {
    await channel.removeHookState(hook.runtime, ids.groupId, ids.actorId);
  }
  await beforeSpawn?.();
  const child = spawn();
  // The live session's own identity, in memory: working state trusts hook state only when it
  // agrees with this and the launch record (an unhooked launch has none).
  if (hook?.hookEnabled) recordSessionIdentity(child, { runtime: hook.runtime, pid: child.pid, launch_token: hook.launchToken });
  if (hook) {
    await channel.writeLaunchRecord({
      v: 1,
      group_id: ids.groupId,
      actor_id: ids.actorId,
      runtime: hook.runtime,
      launch_token: hook.launchToken,
      hook_enabled: hook.hookEnabled,
      pid: child.pid,
    });
  }
  return child;
}

/**
 * A new terminal attached to the same hooked launch (a Claude background job's re-opened
 * `claude attach`): the launch's token and hook state stay, only the terminal's pid moves. The
 * launch record is updated only while it is still that launch's (same token), so a newer launch
 * is never overwritten. The caller holds the actor's hook lock.
 */
export async function moveHookedLaunch(channel: HookChannel, ids: { groupId: string; actorId: string }, identity: LaunchIdentity | null, session: { pid: number } & object): Promise<void> {
  if (!identity) return;
  const record = await channel.launchRecord(ids.groupId, ids.actorId);
  if (!record || record.launch_token !== identity.launch_token) return;
  recordSessionIdentity(session, { ...identity, pid: session.pid });
  await channel.writeLaunchRecord({ ...record, pid: session.pid });
}
