import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import type { HomeLayout } from '@cccc/groups';
import { newLaunchToken, pendingHookState } from '@cccc/hook-fence';
import type { LaunchCommand } from '@cccc/pty-runtime';
import { utcNowIso } from '@cccc/groups';
import { currentMcpServerLauncher } from '../runtime/mcp-contributor.js';
import { claudeVersionSupportsHooks, type HookContributorOptions, type HookLauncher } from '../runtime/hook-contributor.js';
import { removeLaunchRecord, writeHookState, writeLaunchRecord } from './hook-files.js';

let launcherOverride: HookLauncher | undefined;

/** In-process tests run the daemon under vitest, so they name the CLI the hooks should run. */
export function setHookLauncherForTests(launcher: HookLauncher | undefined): void {
  launcherOverride = launcher;
}

/** How an injected hook runs `cccc hook <rt>-state`; undefined when this process has no CLI entry. */
export function hookLauncher(): HookLauncher | undefined {
  return launcherOverride ?? currentMcpServerLauncher();
}

const VERSION_PROBE_TIMEOUT_MS = 3_000;

/** `claude --version` ≥ 2.1.141, run with the launch's own environment and cwd. */
export function probeClaudeHooks(command: LaunchCommand): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      command.argv[0]!,
      ['--version'],
      { cwd: command.cwd, env: command.env as NodeJS.ProcessEnv, timeout: VERSION_PROBE_TIMEOUT_MS, maxBuffer: 64 * 1024 },
      (error, stdout) => resolve(!error && claudeVersionSupportsHooks(String(stdout))),
    );
  });
}

/**
 * The hook part of one launch, decided before spawn from the launch composed without hooks:
 * a fresh token, and whether the direct `claude` (version-probed) launch gets hooks. Codex stays
 * unhooked until the `codex <args> mcp list` pre-probe lands.
 */
export async function planHookLaunch(plain: LaunchCommand): Promise<HookContributorOptions | undefined> {
  const launcher = hookLauncher();
  if (!launcher) return undefined;
  const exe = basename(plain.argv[0] ?? '');
  const claudeHooksSupported = exe === 'claude' && (await probeClaudeHooks(plain));
  return { launcher, launchToken: newLaunchToken(), claudeHooksSupported, codexHooksSupported: false };
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
 */
export async function runHookedSpawn<T extends { pid: number }>(
  layout: HomeLayout,
  ids: { groupId: string; actorId: string },
  hook: { runtime: 'claude' | 'codex'; launchToken: string } | null,
  spawn: () => T,
): Promise<T> {
  await removeLaunchRecord(layout, ids.groupId, ids.actorId);
  if (hook) {
    await writeHookState(
      layout,
      pendingHookState({ runtime: hook.runtime, groupId: ids.groupId, actorId: ids.actorId, launchToken: hook.launchToken, now: utcNowIso() }),
    );
  }
  const child = spawn();
  if (hook) {
    await writeLaunchRecord(layout, {
      v: 1,
      group_id: ids.groupId,
      actor_id: ids.actorId,
      runtime: hook.runtime,
      launch_token: hook.launchToken,
      hook_enabled: true,
      pid: child.pid,
    });
  }
  return child;
}
