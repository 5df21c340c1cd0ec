import { existsSync, statSync } from 'node:fs';
import { getRuntime } from './catalog.js';

export type Env = Readonly<Record<string, string>>;

/** Everything the daemon knows when it starts an actor's PTY. */
export interface LaunchBase {
  readonly runtime: string;
  /** actor.command; required for `custom`, otherwise overrides the catalog default. */
  readonly command?: readonly string[];
  /** The actor's scope root. */
  readonly cwd: string;
  readonly daemonEnv: Env;
  readonly actorEnv?: Env;
  readonly privateEnv?: Env;
  readonly home: string;
  readonly groupId: string;
  readonly actorId: string;
  /** Optional inputrc that turns readline's bracketed paste off (REFERENCE_NOTES §3.5). */
  readonly inputrcPath?: string;
}

export interface LaunchCommand {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/**
 * A step that adjusts the launch command (hook injection, MCP wiring, ...). Pure: preparing
 * files belongs to the caller, so composition stays testable and repeatable.
 */
export interface LaunchContributor {
  readonly name: string;
  contribute(command: LaunchCommand, base: LaunchBase): LaunchCommand;
}

export type LaunchErrorCode = 'missing_command' | 'missing_project_root' | 'scope_missing';

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  constructor(
    readonly code: LaunchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The identity variables come last so no layer (or actor.env typo) can impersonate another actor. */
function identityEnv(base: LaunchBase): Record<string, string> {
  return { CCCC_HOME: base.home, CCCC_GROUP_ID: base.groupId, CCCC_ACTOR_ID: base.actorId };
}

/**
 * Builds argv/env/cwd: env layers daemon env → actor.env → private env → TERM (and INPUTRC) →
 * CCCC_HOME/CCCC_GROUP_ID/CCCC_ACTOR_ID, then each contributor in order. Contributors see the
 * identity variables and may add more, but the identity is re-applied after them.
 */
export function composeLaunch(base: LaunchBase, contributors: readonly LaunchContributor[] = []): LaunchCommand {
  const spec = getRuntime(base.runtime);
  const argv = base.command && base.command.length > 0 ? [...base.command] : [...spec.command];
  if (argv.length === 0) {
    throw new LaunchError('missing_command', base.runtime === 'custom' ? 'runtime custom requires a command' : `runtime ${base.runtime} has no PTY command`);
  }
  if (!base.cwd) throw new LaunchError('missing_project_root', 'actor has no scope to run in');
  const env: Record<string, string> = {
    ...stripUndefined(base.daemonEnv),
    ...base.actorEnv,
    ...base.privateEnv,
    TERM: 'xterm-256color',
    ...(base.inputrcPath ? { INPUTRC: base.inputrcPath } : {}),
    ...identityEnv(base),
  };
  // Sizes come from the PTY, never from a stale parent terminal.
  delete env.COLUMNS;
  delete env.LINES;
  let command: LaunchCommand = { argv, env, cwd: base.cwd };
  for (const c of contributors) command = c.contribute(command, base);
  return { ...command, env: { ...command.env, ...identityEnv(base) } };
}

/** Clear errors before spawning: a scope directory that is gone is not a spawn failure. */
export function assertLaunchCwd(cwd: string): void {
  if (!cwd) throw new LaunchError('missing_project_root', 'actor has no scope to run in');
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new LaunchError('scope_missing', `scope directory does not exist: ${cwd}`);
}

function stripUndefined(env: Env | NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') out[k] = v;
  return out;
}
