import { basename } from 'node:path';
import { ManagedLaunchError } from '../runtime-adapter.js';
import type { AcpLaunch } from './acp-launch.js';

// §8.4 Grok: the parts of the managed launch the spec fixes, built against the spec. No Grok CLI
// can be installed here (the npm packages named grok are unofficial), so this is UNTESTED on the
// real binary, and the private leader process, its ACP observer connection and the native TUI
// attach are not implemented (their protocol is not specified): `terminal()` is null.

/** initialize's `clientCapabilities._meta`: the leader echoes user messages with their promptId. */
export const GROK_INITIALIZE_META: Readonly<Record<string, unknown>> = { 'x.ai/userMessageEcho': true };
/** new/load session `_meta`: bound per session, because the leader shares initialization across clients. */
export const GROK_SESSION_META: Readonly<Record<string, unknown>> = { clientUserMessageEcho: true };

/** Grok subcommands and session-selection flags: CCCC owns the session, so a command using them fails explicitly. */
const SUBCOMMANDS = new Set(['agent', 'completions', 'dashboard', 'export', 'help', 'inspect', 'leader', 'login', 'logout', 'mcp', 'memory', 'models', 'plugin', 'sessions', 'setup', 'trace', 'update', 'version', 'worktree', 'wrap', '--help', '--version']);
const SESSION_FLAGS = new Set(['--resume', '-r', '--continue', '-c', '--session-id', '-s', '--fork-session']);

export interface GrokLaunchPlan {
  readonly executable: string;
  readonly model?: string;
  /** `--always-approve` (the catalog default): remaining permission requests get a one-time allow. */
  readonly alwaysApprove: boolean;
  /** An explicit `--trust`: folder trust for the native TUI only, never the agent subcommand. */
  readonly trust: boolean;
  /** Other flags, passed to both processes. */
  readonly shared: readonly string[];
}

/** The actor's command as a managed Grok plan; anything CCCC cannot own fails explicitly. */
export function planGrokLaunch(argv: readonly string[]): GrokLaunchPlan {
  const [executable, ...rest] = argv;
  if (!executable || basename(executable).replace(/\.exe$/i, '') !== 'grok') {
    throw new ManagedLaunchError('unsupported_command', `not a grok command: ${executable ?? '(empty)'}`);
  }
  let model: string | undefined;
  let alwaysApprove = false;
  let trust = false;
  const shared: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (SUBCOMMANDS.has(flag) || SESSION_FLAGS.has(flag)) throw new ManagedLaunchError('unsupported_command', `grok argument not supported for a managed session: ${arg}`);
    if (flag === '--model' || flag === '-m') {
      const v = inline ?? rest[++i];
      if (!v) throw new ManagedLaunchError('unsupported_command', `${flag} needs a value`);
      model = v;
    } else if (flag === '--always-approve') alwaysApprove = true;
    else if (flag === '--trust') trust = true;
    else if (flag.startsWith('-')) shared.push(arg);
    // A bare word would be an initial prompt: CCCC delivers work, never a launch-time prompt.
    else throw new ManagedLaunchError('unsupported_command', `grok prompt arguments are not supported for a managed session: ${arg}`);
  }
  return { executable, ...(model ? { model } : {}), alwaysApprove, trust, shared };
}

/**
 * The agent side as an AcpLaunch: `grok agent` over stdio (the agent subcommand the spec names;
 * its exact ACP serving form is unverified), the `_meta` echo opt-in on initialize and on every
 * new/load session, `--trust` withheld from the agent. The native TUI (`grok` attached through the
 * private leader) is not built: see the module note.
 */
export function grokAcpLaunch(plan: GrokLaunchPlan): AcpLaunch {
  return {
    runtime: 'grok',
    agentArgv: [plan.executable, 'agent', ...(plan.alwaysApprove ? ['--always-approve'] : []), ...plan.shared],
    agentEnv: {},
    ...(plan.model ? { model: plan.model } : {}),
    autoAllow: plan.alwaysApprove,
    initializeMeta: GROK_INITIALIZE_META,
    sessionMeta: GROK_SESSION_META,
    grokCorrelation: true,
    terminal: () => null,
  };
}

/** The native TUI's extra arguments: `--trust` only when the command asked for it (never by default). */
export function grokTuiArgs(plan: GrokLaunchPlan): string[] {
  return [...(plan.trust ? ['--trust'] : []), ...(plan.model ? ['--model', plan.model] : []), ...plan.shared];
}
