import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { LaunchCommand, LaunchContributor } from '@cccc/pty-runtime';
import type { CliLauncher } from './cli-launcher.js';
import { HOOK_HTTP_ENV, HOOK_HTTP_HEADERS } from '../hooks/hook-http-request.js';

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
/** Claude Code's http hooks arrived in 2.1.63 (below the hook minimum, but gated on its own). */
export const MIN_CLAUDE_HTTP_HOOK_VERSION = [2, 1, 63] as const;
/**
 * The events the pinned Claude Code (2.1.328) was seen POSTing as http hooks, in a turn with a
 * succeeding and a failing Bash call: everything else (SessionStart never fires over http; the
 * permission, notification and subagent events were not verified) keeps the command hook.
 */
export const CLAUDE_HTTP_HOOK_EVENTS: ReadonlySet<string> = new Set(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd']);
const HOOK_TIMEOUT_S = 3;

/** How an injected hook runs `cccc hook <rt>-state` (the daemon's CLI launcher). */
export type HookLauncher = CliLauncher;

export interface HookContributorOptions {
  readonly launcher: HookLauncher;
  /** Fresh per launch; goes to CCCC_HOOK_LAUNCH_TOKEN and the pending hook state. */
  readonly launchToken: string;
  /** Decided before launch: `claude --version` ≥ 2.1.141. */
  readonly claudeHooksSupported: boolean;
  /**
   * The daemon's loopback hook URL, when this claude gets http hooks (version ≥ 2.1.63, listener
   * up, not turned off by CCCC_CLAUDE_HTTP_HOOKS=0); undefined: command hooks for every event.
   */
  readonly claudeHttpHookUrl?: string;
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

function versionAtLeast(versionOutput: string, min: readonly [number, number, number]): boolean {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(versionOutput);
  if (!m) return false;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i]! > min[i]!;
  return true;
}

/** `claude --version` output such as `2.1.141 (Claude Code)`. */
export function claudeVersionSupportsHooks(versionOutput: string): boolean {
  return versionAtLeast(versionOutput, MIN_CLAUDE_HOOK_VERSION);
}

/** Whether this `claude --version` output names a Claude Code with http hooks. */
export function claudeVersionSupportsHttpHooks(versionOutput: string): boolean {
  return versionAtLeast(versionOutput, MIN_CLAUDE_HTTP_HOOK_VERSION);
}

/**
 * One http hook: the same JSON body the command hook reads on stdin, POSTed to the daemon. The
 * identity, launch token included, goes in headers Claude fills from the agent's environment
 * (only the variables named in `allowedEnvVars`), so the settings on the command line hold no secret.
 */
export function claudeHttpHook(url: string): Record<string, unknown> {
  const headers = Object.fromEntries(
    (Object.keys(HOOK_HTTP_HEADERS) as (keyof typeof HOOK_HTTP_HEADERS)[]).map((k) => [HOOK_HTTP_HEADERS[k], `$${HOOK_HTTP_ENV[k]}`]),
  );
  return { type: 'http', url, headers, allowedEnvVars: Object.values(HOOK_HTTP_ENV), timeout: HOOK_TIMEOUT_S };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Merge the hooks into the last effective `--settings` (inline JSON or a file) as one inline
 * `--settings`. Returns undefined when the user's settings cannot be read or understood: the
 * launch then stays unhooked rather than drop the user's settings.
 */
export function withClaudeHookSettings(argv: readonly string[], command: string, cwd: string, readFile: (p: string) => string, httpUrl?: string): string[] | undefined {
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
    const hook = httpUrl && CLAUDE_HTTP_HOOK_EVENTS.has(event) ? claudeHttpHook(httpUrl) : { type: 'command', command, timeout: HOOK_TIMEOUT_S };
    const group = { hooks: [hook] };
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
        const argv = withClaudeHookSettings(command.argv, hookCommand(options.launcher, 'claude'), command.cwd, readFile, options.claudeHttpHookUrl);
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
