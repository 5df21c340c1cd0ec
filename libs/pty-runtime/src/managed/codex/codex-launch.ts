import { basename } from 'node:path';
import { ManagedLaunchError } from '../runtime-adapter.js';
import type { AskForApproval } from './generated/v2/AskForApproval.js';
import type { SandboxMode } from './generated/v2/SandboxMode.js';

/**
 * A codex command split the way the managed launch needs it: the global arguments both the
 * app-server and the attached TUI receive (config, profile, model, features), and the execution
 * policy, which goes to the app-server's thread only (the spec: the remote TUI attaches without
 * approval/sandbox overrides).
 */
export interface CodexLaunchPlan {
  readonly executable: string;
  readonly globalArgs: readonly string[];
  readonly approvalPolicy: AskForApproval | null;
  readonly sandbox: SandboxMode | null;
  /** `--search`: live web search, as thread config. */
  readonly webSearch: boolean;
}

const WITH_VALUE = new Set(['-c', '--config', '--enable', '--disable', '-m', '--model', '-p', '--profile']);
const APPROVALS = new Set(['untrusted', 'on-request', 'never']);
const SANDBOXES = new Set(['read-only', 'workspace-write', 'danger-full-access']);

/** Whether an executable is codex itself (a wrapper is not: it fails explicitly instead). */
export function isCodexExecutable(executable: string | undefined): boolean {
  return executable !== undefined && basename(executable) === 'codex';
}

/** Throws `unsupported_command` for a subcommand, wrapper, prompt tail or unknown flag. */
export function planCodexLaunch(argv: readonly string[]): CodexLaunchPlan {
  const [executable, ...rest] = argv;
  if (!isCodexExecutable(executable)) {
    throw new ManagedLaunchError('unsupported_command', `a managed codex actor runs codex directly, not ${executable ?? '(nothing)'}`);
  }
  const globalArgs: string[] = [];
  let approvalPolicy: AskForApproval | null = null;
  let sandbox: SandboxMode | null = null;
  let webSearch = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = rest[++i];
      if (next === undefined) throw new ManagedLaunchError('unsupported_command', `${flag} needs a value`);
      return next;
    };
    if (WITH_VALUE.has(flag)) {
      globalArgs.push(flag, value());
    } else if (flag === '--dangerously-bypass-approvals-and-sandbox' || flag === '--yolo') {
      approvalPolicy = 'never';
      sandbox = 'danger-full-access';
    } else if (flag === '-a' || flag === '--ask-for-approval') {
      const v = value();
      if (!APPROVALS.has(v)) throw new ManagedLaunchError('unsupported_command', `unsupported approval policy ${v}`);
      approvalPolicy = v as AskForApproval;
    } else if (flag === '-s' || flag === '--sandbox') {
      const v = value();
      if (!SANDBOXES.has(v)) throw new ManagedLaunchError('unsupported_command', `unsupported sandbox mode ${v}`);
      sandbox = v as SandboxMode;
    } else if (flag === '--search') {
      webSearch = true;
    } else {
      throw new ManagedLaunchError('unsupported_command', `codex argument ${arg} is not supported for a managed session (subcommands and prompts are not)`);
    }
  }
  return { executable: executable!, globalArgs, approvalPolicy, sandbox, webSearch };
}

/** The app-server's argv, listening on the generation's private unix socket. */
export function appServerArgv(plan: CodexLaunchPlan, socketPath: string): string[] {
  return [plan.executable, ...plan.globalArgs, 'app-server', '--listen', `unix://${socketPath}`];
}

/** The native TUI attached to the exact thread (no policy overrides: the server holds them). */
export function attachedTuiArgv(plan: CodexLaunchPlan, socketPath: string, threadId: string): string[] {
  return [plan.executable, ...plan.globalArgs, 'resume', threadId, '--remote', `unix://${socketPath}`];
}
