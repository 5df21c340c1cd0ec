import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { LaunchCommand, LaunchContributor } from '@cccc/pty-runtime';
import type { CliLauncher } from './cli-launcher.js';

// Launch-time hook injection (issue 7, REFERENCE_NOTES §5.2): per launch, on the command line
// only; the user's own ~/.claude or ~/.codex files are never written.

export const CLAUDE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
  'Notification',
] as const;
export const CLAUDE_NOTIFICATION_MATCHER = 'permission_prompt|idle_prompt|elicitation_dialog|agent_needs_input|agent_completed';
export const CODEX_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionEnd',
] as const;
export const MIN_CLAUDE_HOOK_VERSION = [2, 1, 141] as const;
const HOOK_TIMEOUT_S = 3;

/** How an injected hook runs `cccc hook <rt>-state` (the daemon's CLI launcher). */
export type HookLauncher = CliLauncher;

export interface HookContributorOptions {
  readonly launcher: HookLauncher;
  /** Fresh per launch; goes to CCCC_HOOK_LAUNCH_TOKEN and the pending hook state. */
  readonly launchToken: string;
  /** Decided before launch: `claude --version` ≥ 2.1.141. */
  readonly claudeHooksSupported: boolean;
  /** Decided before launch: the `codex <args> mcp list` pre-probe succeeded. */
  readonly codexHooksSupported: boolean;
  /** Reads a `--settings` file (relative paths resolve against the launch cwd). */
  readonly readFile?: (path: string) => string;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(launcher: HookLauncher, runtime: 'claude' | 'codex'): string {
  return `${shellQuote(launcher.node)} ${shellQuote(launcher.cliEntry)} hook ${runtime}-state`;
}

/** `claude --version` output such as `2.1.141 (Claude Code)`. */
export function claudeVersionSupportsHooks(versionOutput: string): boolean {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(versionOutput);
  if (!m) return false;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) if (v[i] !== MIN_CLAUDE_HOOK_VERSION[i]) return v[i]! > MIN_CLAUDE_HOOK_VERSION[i]!;
  return true;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Merge the hooks into the last effective `--settings` (inline JSON or a file) as one inline
 * `--settings`. Returns undefined when the user's settings cannot be read or understood: the
 * launch then stays unhooked rather than drop the user's settings.
 */
export function withClaudeHookSettings(argv: readonly string[], command: string, cwd: string, readFile: (p: string) => string): string[] | undefined {
  const rest: string[] = [argv[0]!];
  let userValue: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--settings' && i + 1 < argv.length) userValue = argv[++i];
    else if (arg.startsWith('--settings=')) userValue = arg.slice('--settings='.length);
    else rest.push(arg);
  }
  let settings: unknown = {};
  if (userValue !== undefined) {
    try {
      settings = JSON.parse(userValue.trim().startsWith('{') ? userValue : readFile(resolve(cwd, userValue)));
    } catch {
      return undefined;
    }
  }
  if (!isRecord(settings)) return undefined;
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks)) return undefined;
  const merged: Record<string, unknown> = { ...hooks };
  for (const event of CLAUDE_HOOK_EVENTS) {
    const existing = merged[event] ?? [];
    if (!Array.isArray(existing)) return undefined;
    const group = { hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] };
    merged[event] = [...existing, event === 'Notification' ? { matcher: CLAUDE_NOTIFICATION_MATCHER, ...group } : group];
  }
  const ddIndex = rest.indexOf('--');
  const settingsArgs = ['--settings', JSON.stringify({ ...settings, hooks: merged })];
  if (ddIndex === -1) return [...rest, ...settingsArgs];
  return [...rest.slice(0, ddIndex), ...settingsArgs, ...rest.slice(ddIndex)];
}

const snake = (event: string): string => event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (isRecord(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

/** sha256 of the compact, sorted-key JSON of one event's hook group, as codex trusts it. */
export function codexTrustHash(event: string, command: string): string {
  const body = { event_name: snake(event), hooks: [{ async: false, command, timeout: HOOK_TIMEOUT_S, type: 'command' }] };
  return `sha256:${createHash('sha256').update(sortedJson(body)).digest('hex')}`;
}

/** `-c hooks.<E>=[…]` per event plus the trust entries, after the executable. */
export function codexHookArgs(command: string): string[] {
  const args: string[] = [];
  const cmd = JSON.stringify(command); // a JSON string is a valid TOML basic string
  for (const event of CODEX_HOOK_EVENTS) args.push('-c', `hooks.${event}=[{hooks=[{type="command",command=${cmd},timeout=${HOOK_TIMEOUT_S}}]}]`);
  const trust = CODEX_HOOK_EVENTS.map(
    (e) => `${JSON.stringify(`/<session-flags>/config.toml:${snake(e)}:0:0`)}={trusted_hash=${JSON.stringify(codexTrustHash(e, command))}}`,
  );
  args.push('-c', `hooks.state={${trust.join(',')}}`);
  return args;
}

/**
 * The pre-probe of a codex launch: `codex <config overrides> <hook args> mcp list`. Only the
 * configuration flags of the launch are kept (`-c`/`--config`, `-p`/`--profile`): interactive
 * flags such as `--search` are not accepted next to a subcommand. A codex that cannot load the
 * hook configuration fails this and the launch stays unhooked.
 */
export function codexProbeArgv(argv: readonly string[], command: string): string[] {
  const config: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if ((arg === '-c' || arg === '--config' || arg === '-p' || arg === '--profile') && i + 1 < argv.length) config.push(arg, argv[++i]!);
    else if (arg.startsWith('--config=') || arg.startsWith('--profile=')) config.push(arg);
  }
  return [argv[0]!, ...config, ...codexHookArgs(command), 'mcp', 'list'];
}

/**
 * Injects the state hooks into direct `claude` / `codex` launches and passes the launch token in
 * the environment. Anything else, an unsupported version or a failed pre-probe launches unhooked.
 */
export function hookLaunchContributor(options: HookContributorOptions): LaunchContributor {
  const readFile = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  return {
    name: 'hooks',
    contribute(command: LaunchCommand): LaunchCommand {
      const exe = basename(command.argv[0] ?? '');
      const env = { ...command.env, CCCC_HOOK_LAUNCH_TOKEN: options.launchToken };
      if (exe === 'claude' && options.claudeHooksSupported) {
        const argv = withClaudeHookSettings(command.argv, hookCommand(options.launcher, 'claude'), command.cwd, readFile);
        return argv ? { ...command, argv, env } : command;
      }
      if (exe === 'codex' && options.codexHooksSupported) {
        const [head, ...tail] = command.argv;
        return { ...command, argv: [head!, ...codexHookArgs(hookCommand(options.launcher, 'codex')), ...tail], env };
      }
      return command;
    },
  };
}
