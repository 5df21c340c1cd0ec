import { basename, join } from 'node:path';
import { ManagedLaunchError, type ManagedMcpServer } from '../runtime-adapter.js';
import type { AcpLaunch } from './acp-launch.js';

// §8.4 `runtime_mode: "acp"`: Antigravity, Copilot, Devin and Cursor as pure headless ACP agents
// (no native TUI). Each CLI is started in its documented ACP mode. Copilot's plan is verified on
// the real GitHub Copilot CLI (tools/src/real-clis/daemon-copilot-acp.test.ts); Antigravity, Devin
// and Cursor cannot be installed here, so theirs follow the spec and the CLIs' documentation,
// untested on the real programs (the daemon test drives a scripted ACP agent under their names).

export type HeadlessAcpRuntime = 'antigravity' | 'copilot' | 'devin' | 'cursor';
export const HEADLESS_ACP_RUNTIMES: readonly HeadlessAcpRuntime[] = ['antigravity', 'copilot', 'devin', 'cursor'];

export function isHeadlessAcpRuntime(runtime: string): runtime is HeadlessAcpRuntime {
  return (HEADLESS_ACP_RUNTIMES as readonly string[]).includes(runtime);
}

interface RuntimeRules {
  /** Executable basenames the actor's command may name. */
  readonly executables: readonly string[];
  /** How the CLI is asked to serve ACP on stdio. */
  readonly acpArgs: readonly string[];
  /** Flags selecting the unrestricted permission policy (kept in argv, and auto-allow in CCCC). */
  readonly unrestricted: readonly string[];
  /** Flags taking one value that are passed through to the agent. */
  readonly valued: readonly string[];
  /** Bare flags passed through to the agent. */
  readonly bare: readonly string[];
  /** Copilot takes the CCCC MCP server process-scoped in argv; the others per ACP session. */
  readonly mcp: 'argv' | 'session';
}

const RULES: Readonly<Record<HeadlessAcpRuntime, RuntimeRules>> = {
  // `agy --acp`, YOLO default `--dangerously-skip-permissions` (§8.4 Antigravity ACP).
  antigravity: { executables: ['agy', 'antigravity'], acpArgs: ['--acp'], unrestricted: ['--dangerously-skip-permissions'], valued: [], bare: [], mcp: 'session' },
  // `copilot --acp`; `--allow-all` (catalog default), `--allow-all-tools`, `--yolo` are unrestricted.
  copilot: {
    executables: ['copilot'],
    acpArgs: ['--acp'],
    unrestricted: ['--allow-all', '--allow-all-tools', '--yolo'],
    valued: ['--allow-tool', '--deny-tool', '--add-dir'],
    bare: ['--allow-all-paths'],
    mcp: 'argv',
  },
  // `devin acp`; `--permission-mode dangerous` (catalog default) is unrestricted.
  devin: { executables: ['devin'], acpArgs: ['acp'], unrestricted: [], valued: [], bare: [], mcp: 'session' },
  // `cursor-agent acp`; `--yolo` / `--force` are unrestricted, `--approve-mcps` passes through.
  cursor: { executables: ['cursor-agent', 'agent'], acpArgs: ['acp'], unrestricted: ['--yolo', '--force', '-f'], valued: [], bare: ['--approve-mcps'], mcp: 'session' },
};

export interface HeadlessAcpPlan {
  readonly runtime: HeadlessAcpRuntime;
  readonly executable: string;
  /** An explicit `--model`: reapplied with `session/set_config_option` on new and resumed sessions. */
  readonly model?: string;
  /** The command selected the unrestricted policy: remaining permission requests get a one-time allow. */
  readonly unrestricted: boolean;
  /** The agent's argv after the executable (ACP mode first, then the passed-through flags). */
  readonly args: readonly string[];
}

/** The actor's command as a headless ACP plan; a command it cannot run that way fails explicitly. */
export function planHeadlessAcpLaunch(runtime: string, argv: readonly string[]): HeadlessAcpPlan {
  if (!isHeadlessAcpRuntime(runtime)) throw new ManagedLaunchError('unsupported_command', `runtime ${runtime} has no headless ACP mode`);
  const rules = RULES[runtime];
  const [executable, ...rest] = argv;
  const name = basename(executable ?? '').replace(/\.(exe|cmd)$/i, '');
  if (!executable || !rules.executables.includes(name)) {
    throw new ManagedLaunchError('unsupported_command', `not a ${runtime} command: ${executable ?? '(empty)'} (expected ${rules.executables.join(' or ')})`);
  }
  let model: string | undefined;
  let unrestricted = false;
  const args = [...rules.acpArgs];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') throw new ManagedLaunchError('unsupported_command', `${flag} needs a value`);
      return v;
    };
    if (rules.acpArgs.includes(arg)) continue; // already asked for
    if (flag === '--model' || flag === '-m') model = value();
    else if (rules.unrestricted.includes(flag)) {
      unrestricted = true;
      args.push(flag);
    } else if (runtime === 'devin' && flag === '--permission-mode') {
      const mode = value();
      unrestricted ||= mode === 'dangerous';
      args.push(flag, mode);
    } else if (rules.valued.includes(flag)) args.push(flag, value());
    else if (rules.bare.includes(flag)) args.push(flag);
    else throw new ManagedLaunchError('unsupported_command', `${runtime} argument not supported for headless ACP: ${arg}`);
  }
  return { runtime, executable, ...(model ? { model } : {}), unrestricted, args };
}

/** Where Antigravity ACP keeps its provider state: CCCC-owned, apart from the person's own `agy` home. */
export function antigravityProviderHome(ccccHome: string): string {
  return join(ccccHome, 'runtimes', 'antigravity', 'home');
}

export interface HeadlessAcpContext {
  /** The actor's CCCC MCP server(s). */
  readonly mcpServers: readonly ManagedMcpServer[];
  /** CCCC_HOME (Antigravity's provider home lives under it). */
  readonly ccccHome: string;
}

/**
 * The agent launch: Copilot gets the CCCC MCP server process-scoped (`--additional-mcp-config`,
 * never its global MCP configuration); Antigravity runs with HOME at its CCCC-owned provider home
 * (a separate login). `sessionMcp` says whether the servers also go into `session/new`/`load`.
 */
export function headlessAcpLaunch(plan: HeadlessAcpPlan, context: HeadlessAcpContext): { launch: AcpLaunch; sessionMcp: boolean } {
  const rules = RULES[plan.runtime];
  const args = [...plan.args];
  if (rules.mcp === 'argv' && context.mcpServers.length > 0) {
    const servers = Object.fromEntries(context.mcpServers.map((m) => [m.name, { type: 'local', command: m.command, args: [...m.args], env: { ...m.env }, tools: ['*'] }]));
    args.push('--additional-mcp-config', JSON.stringify({ mcpServers: servers }));
  }
  const agentEnv: Record<string, string> = plan.runtime === 'antigravity' ? { HOME: antigravityProviderHome(context.ccccHome) } : {};
  return {
    launch: {
      runtime: plan.runtime,
      agentArgv: [plan.executable, ...args],
      agentEnv,
      ...(plan.model ? { model: plan.model } : {}),
      autoAllow: plan.unrestricted,
      // Cursor's blocking questions and plan reviews (§8.9), answered through headless_control.
      cursorExtensions: plan.runtime === 'cursor',
      terminal: () => null,
    },
    sessionMcp: rules.mcp === 'session',
  };
}
