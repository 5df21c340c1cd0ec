import { createHash } from 'node:crypto';
import { basename } from 'node:path';

// Pure decisions of the Claude background-session launch (spec §8.4 "Agent View"): whether an
// actor's command runs as a CCCC-owned background session or falls back to the native PTY, what
// goes on the `claude --bg` command line, what goes into the owner-scoped settings file, and the
// launch identity a receipt must match to be resumed.

/** The spec's floor for Agent View background sessions. */
export const CLAUDE_BACKGROUND_MIN_VERSION = [2, 1, 259] as const;

/** The runner (`runner_effective`) of an actor running as a Claude background session. */
export const CLAUDE_BACKGROUND_RUNNER = 'claude_background';

/** Why an actor's claude runs in the native PTY instead (a deliberate, reported fallback). */
export type NativeFallbackCode =
  | 'claude_background_disabled'
  | 'claude_version_unsupported'
  | 'claude_version_unknown'
  | 'claude_command_unsupported'
  | 'claude_agent_view_unavailable';

export type BackgroundPlan =
  | { readonly mode: 'background'; readonly version: string }
  | { readonly mode: 'native'; readonly code: NativeFallbackCode; readonly diagnostic: string };

/** `2.1.328 (Claude Code)` → "2.1.328"; undefined when no version is printed. */
export function parseClaudeVersion(output: string): string | undefined {
  return /(\d+)\.(\d+)\.(\d+)/.exec(output)?.[0];
}

export function versionAtLeast(version: string, min: readonly [number, number, number]): boolean {
  const v = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return (v[i] ?? 0) > min[i]!;
  return true;
}

/**
 * Flags CCCC owns on a background launch (background/session/attach, name, resume): a command
 * carrying one cannot be run as the CCCC-owned session, so it is not guessed at.
 */
const OWNED_FLAGS = new Set(['--bg', '--background', '--resume', '-r', '--continue', '-c', '--session-id', '--fork-session', '-p', '--print', '--name', '-n']);

/** Flags of the pinned claude that take one value (so the value is not mistaken for a prompt). */
const VALUE_FLAGS = new Set([
  '--model',
  '--settings',
  '--mcp-config',
  '--append-system-prompt',
  '--system-prompt',
  '--permission-mode',
  '--add-dir',
  '--allowedTools',
  '--allowed-tools',
  '--disallowedTools',
  '--disallowed-tools',
  '--effort',
  '--agent',
  '--agents',
  '--setting-sources',
  '--fallback-model',
  '--plugin-dir',
  '--debug-file',
  '--betas',
]);

/** The reason a command cannot run as a background session, or null when it can. */
export function unsupportedCommand(argv: readonly string[]): string | null {
  if (basename(argv[0] ?? '') !== 'claude') return 'the executable is not claude';
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (OWNED_FLAGS.has(flag)) return `${flag} is owned by CCCC on a background session`;
    if (!arg.startsWith('-')) return 'a prompt or subcommand in the command';
    if (VALUE_FLAGS.has(arg)) i++;
  }
  return null;
}

/**
 * Background session or native PTY, from the command and `claude --version` (run with the
 * launch's environment). Every native outcome names exactly what was missing.
 */
export function planClaudeBackground(input: { readonly enabled: boolean; readonly argv: readonly string[]; readonly versionOutput: string | undefined }): BackgroundPlan {
  if (!input.enabled) return { mode: 'native', code: 'claude_background_disabled', diagnostic: 'Claude background sessions are turned off in this daemon (CCCC_CLAUDE_BACKGROUND)' };
  const unsupported = unsupportedCommand(input.argv);
  if (unsupported) return { mode: 'native', code: 'claude_command_unsupported', diagnostic: `not run as a background session: ${unsupported}` };
  const version = input.versionOutput === undefined ? undefined : parseClaudeVersion(input.versionOutput);
  if (!version) return { mode: 'native', code: 'claude_version_unknown', diagnostic: 'claude --version reported no version: Agent View support cannot be verified' };
  if (!versionAtLeast(version, CLAUDE_BACKGROUND_MIN_VERSION)) {
    return { mode: 'native', code: 'claude_version_unsupported', diagnostic: `claude ${version} is below ${CLAUDE_BACKGROUND_MIN_VERSION.join('.')}, the first with Agent View background sessions` };
  }
  return { mode: 'background', version };
}

/**
 * What `claude --help` must list for CCCC to own a background session: the `--bg` flag and the
 * `attach` and `agents` subcommands (the pinned 2.1.328 prints each at the start of its own
 * line). A version number alone is not the evidence: a wrapper or a look-alike (the project's
 * fake agent prints a Claude-like version) may not have Agent View at all.
 */
const AGENT_VIEW_HELP = [
  { what: '--bg', re: /^\s*--bg\b/m },
  { what: 'attach', re: /^\s*attach\s/m },
  { what: 'agents', re: /^\s*agents\s/m },
] as const;

/** null when the help output shows Agent View, else the native fallback naming what is missing. */
export function agentViewHelpProblem(helpOutput: string | undefined): { code: NativeFallbackCode; diagnostic: string } | null {
  if (helpOutput === undefined) return { code: 'claude_agent_view_unavailable', diagnostic: 'claude --help could not be read: Agent View support cannot be verified' };
  const missing = AGENT_VIEW_HELP.filter((m) => !m.re.test(helpOutput)).map((m) => m.what);
  if (missing.length === 0) return null;
  return { code: 'claude_agent_view_unavailable', diagnostic: `claude --help does not list ${missing.join(', ')}: no Agent View background sessions` };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The variables that change per launch without changing what the session is. */
const VOLATILE_ENV = new Set(['CCCC_HOOK_LAUNCH_TOKEN']);

export interface BackgroundLaunch {
  /** The arguments after `claude --bg` (the composed launch's flags, `--settings` moved to the file). */
  readonly args: string[];
  /** The owner-scoped settings file's content: the launch's settings plus its environment. */
  readonly settings: Record<string, unknown>;
  /** sha256 of the arguments and the settings without per-launch wiring: what a receipt must match. */
  readonly identity: string;
}

/**
 * The composed (MCP- and hook-wired) launch as a background launch. Agent View strips the
 * environment of a persisted job (the worker inherits the supervisor's), so the launch's
 * environment goes into the settings file's `env`, merged over the inline `--settings` the hook
 * contributor produced; the file's path is all the command line and the job record hold.
 * Returns undefined when the inline settings are not a JSON object.
 */
export function backgroundLaunch(argv: readonly string[], env: Readonly<Record<string, string>>, settingsPath: string): BackgroundLaunch | undefined {
  const args: string[] = [];
  let inline: unknown = {};
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--settings' && i + 1 < argv.length) {
      try {
        inline = JSON.parse(argv[++i]!);
      } catch {
        return undefined;
      }
    } else args.push(arg);
  }
  if (!isRecord(inline)) return undefined;
  const inlineEnv = isRecord(inline.env) ? inline.env : {};
  const settings: Record<string, unknown> = { ...inline, env: { ...inlineEnv, ...env } };
  const stableEnv = Object.fromEntries(Object.entries({ ...inlineEnv, ...env }).filter(([k]) => !VOLATILE_ENV.has(k)).sort(([a], [b]) => (a < b ? -1 : 1)));
  // The hooks are CCCC's per-daemon wiring (the http hook URL's port changes with the daemon), not
  // what the session is: they stay out of the identity, like the launch token.
  const { hooks: _hooks, ...stable } = settings;
  const identity = createHash('sha256').update(JSON.stringify({ args, settings: { ...stable, env: stableEnv } })).digest('hex');
  return { args: [...args, '--settings', settingsPath], settings, identity };
}

/** `cccc <group>/<actor>`: the session's display name in Agent View. */
export function backgroundSessionName(groupId: string, actorId: string): string {
  return `cccc ${groupId}/${actorId}`;
}

/**
 * The live worker's own version, from the record the worker keeps for itself
 * (`sessions/<worker pid>.json`: `version`, `sessionId`, `jobId`): null when it is this job's
 * worker at or above the floor, else why not (absent, unreadable, another session's and older
 * workers all fail closed). A worker may run another version than the resolved executable.
 */
export function workerVersionProblem(sessionJson: string | undefined, expected: { readonly sessionId: string; readonly jobId: string }): string | null {
  if (sessionJson === undefined) return 'the live worker has no session record';
  let record: { version?: unknown; sessionId?: unknown; jobId?: unknown };
  try {
    record = JSON.parse(sessionJson) as typeof record;
  } catch {
    return 'the worker session record is not JSON';
  }
  if (record.sessionId !== expected.sessionId || record.jobId !== expected.jobId) return 'the worker session record names another session';
  const parsed = typeof record.version === 'string' ? parseClaudeVersion(record.version) : undefined;
  if (!parsed) return 'the worker session record names no version';
  if (!versionAtLeast(parsed, CLAUDE_BACKGROUND_MIN_VERSION)) return `the worker runs Claude Code ${parsed}, below ${CLAUDE_BACKGROUND_MIN_VERSION.join('.')}`;
  return null;
}
