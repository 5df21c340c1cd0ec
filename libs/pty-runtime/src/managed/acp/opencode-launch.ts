import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { ManagedLaunchError } from '../runtime-adapter.js';
import type { AcpLaunch } from './acp-launch.js';
import { loopbackListenPorts } from './loopback-listener.js';
import { observeOpencodeEvents } from './opencode-events.js';

/** Spec §8.4: the resolved executable must report OpenCode 1.18.14 or newer. */
export const OPENCODE_VERSION_FLOOR = '1.18.14';
const BACKEND_WAIT_MS = 15_000;

/**
 * opencode and its fork Kilo share the managed-session shape (§8.4: "Kilo uses the same
 * managed-session ownership as OpenCode"); they differ in executable and variable names. Kilo's
 * are `KILO_SERVER_PASSWORD` / `KILO_SERVER_USERNAME` (default user `kilo`), as `kilo attach --help`
 * of the pinned Kilo CLI documents them and its real tests use them.
 */
export interface OpencodeFlavor {
  readonly runtime: 'opencode' | 'kilo';
  readonly executable: RegExp;
  /** The backend's basic-auth variables and user name. */
  readonly passwordVar: string;
  readonly usernameVar: string;
  readonly username: string;
}

export const OPENCODE_FLAVOR: OpencodeFlavor = {
  runtime: 'opencode',
  executable: /^opencode(\.exe|\.cmd)?$/i,
  passwordVar: 'OPENCODE_SERVER_PASSWORD',
  usernameVar: 'OPENCODE_SERVER_USERNAME',
  username: 'opencode',
};

export const KILO_FLAVOR: OpencodeFlavor = {
  runtime: 'kilo',
  executable: /^(kilo|kilocode)(\.exe|\.cmd)?$/i,
  passwordVar: 'KILO_SERVER_PASSWORD',
  usernameVar: 'KILO_SERVER_USERNAME',
  username: 'kilo',
};

export interface OpencodeLaunchPlan {
  readonly executable: string;
  /** An explicit `--model provider/model`: set on the ACP session (new and resumed). */
  readonly model?: string;
  /** Flags both the ACP agent and the TUI take (`--pure`, `--log-level X`, `--print-logs`). */
  readonly shared: readonly string[];
  /** `--auto` (the catalog default): permissions not explicitly denied are allowed, one at a time. */
  readonly auto: boolean;
  /** Flags only the attached TUI takes (`--mini`). */
  readonly tuiOnly: readonly string[];
}

export function isOpencodeExecutable(exe: string): boolean {
  return /^opencode(\.exe|\.cmd)?$/i.test(basename(exe));
}

/** The actor's command as a managed plan; commands it cannot run managed fail explicitly. */
export function planOpencodeLaunch(argv: readonly string[], flavor: OpencodeFlavor = OPENCODE_FLAVOR): OpencodeLaunchPlan {
  const [executable, ...args] = argv;
  if (!executable || !flavor.executable.test(basename(executable))) throw new ManagedLaunchError('unsupported_command', `not a ${flavor.runtime} command: ${executable ?? '(empty)'}`);
  let model: string | undefined;
  let auto = false;
  const shared: string[] = [];
  const tuiOnly: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new ManagedLaunchError('unsupported_command', `${flag} needs a value`);
      return v;
    };
    if (flag === '-m' || flag === '--model') model = value();
    else if (flag === '--auto') auto = true;
    else if (flag === '--mini') tuiOnly.push(flag);
    else if (flag === '--pure' || flag === '--print-logs') shared.push(flag);
    else if (flag === '--log-level') shared.push(flag, value());
    else throw new ManagedLaunchError('unsupported_command', `${flavor.runtime} argument not supported for a managed session: ${arg}`);
  }
  return { executable, ...(model ? { model } : {}), shared, auto, tuiOnly };
}

/** `opencode --version` compared with the floor; throws `start_failed` below it or unreadable. */
export function checkOpencodeVersion(executable: string, env: Readonly<Record<string, string>>): string {
  let out: string;
  try {
    out = execFileSync(executable, ['--version'], { env, encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    throw new ManagedLaunchError('start_failed', `opencode --version failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const version = /(\d+)\.(\d+)\.(\d+)/.exec(out)?.[0];
  if (!version || compareVersions(version, OPENCODE_VERSION_FLOOR) < 0) {
    throw new ManagedLaunchError('start_failed', `opencode ${version ?? `(unreadable: ${out.trim().slice(0, 80)})`} is older than ${OPENCODE_VERSION_FLOOR}`);
  }
  return version;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/**
 * `opencode acp` with a generation-scoped authenticated loopback backend: `--port 0` on
 * 127.0.0.1, a fresh random password in OPENCODE_SERVER_PASSWORD (the HTTP backend's basic
 * auth; never in argv). Once `initialize` answered, the backend's port is read from the
 * kernel's socket table, and `opencode attach <url> --session <id>` attaches the native TUI to
 * that exact session with the same password.
 */
export function opencodeAcpLaunch(plan: OpencodeLaunchPlan, cwd: string, flavor: OpencodeFlavor = OPENCODE_FLAVOR): AcpLaunch {
  const password = randomBytes(24).toString('base64url');
  const auth = { [flavor.passwordVar]: password, [flavor.usernameVar]: flavor.username };
  let url = '';
  return {
    runtime: flavor.runtime,
    agentArgv: [plan.executable, 'acp', '--port', '0', '--hostname', '127.0.0.1', '--cwd', cwd, ...plan.shared],
    agentEnv: auth,
    ...(plan.model ? { model: plan.model } : {}),
    autoAllow: plan.auto,
    async ready(pid) {
      const deadline = Date.now() + BACKEND_WAIT_MS;
      for (;;) {
        // The agent may hold other loopback listeners: the backend is the one that asks for
        // its basic auth (401 without it).
        for (const port of loopbackListenPorts(pid)) {
          if (await answersWithAuthChallenge(port)) {
            url = `http://127.0.0.1:${port}`;
            return;
          }
        }
        if (Date.now() > deadline) throw new ManagedLaunchError('start_failed', `${flavor.runtime} acp opened no loopback backend`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    observe(sessionId, dir, observer) {
      return observeOpencodeEvents(url, { username: flavor.username, password }, dir, sessionId, observer);
    },
    terminal(sessionId, dir) {
      if (!url || !sessionId) return null;
      return {
        argv: [plan.executable, 'attach', url, '--session', sessionId, '--dir', dir, ...plan.shared, ...plan.tuiOnly],
        env: auth,
      };
    },
  };
}

async function answersWithAuthChallenge(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/session`, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.status === 401;
  } catch {
    return false;
  }
}
