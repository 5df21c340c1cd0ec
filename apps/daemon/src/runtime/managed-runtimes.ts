import { join } from 'node:path';
import { MCP_SERVER_NAME } from '@cccc/mcp/launch';
import { codexAppServerAdapter, opencodeAcpAdapter, type ManagedMcpServer, type RuntimeAdapter } from '@cccc/pty-runtime';
import type { CliLauncher } from './cli-launcher.js';
import type { OwnedKind } from './ownership-records.js';

/**
 * The runtimes a daemon runs as managed sessions, and what each is called: the running surface
 * (`runner_effective`, the delivery transport), the kind of its provider process's ownership
 * record, and where the provider keeps the sessions a receipt may resume.
 */
export interface ManagedRuntime {
  readonly adapter: RuntimeAdapter;
  readonly runner: string;
  /** What a start report calls the provider process (`codex app-server`). */
  readonly providerName: string;
  readonly ownedKind: OwnedKind;
  /** The provider's storage identity: a receipt only resumes when it is unchanged. */
  storage(env: Readonly<Record<string, string>>): string;
  /** The actor's `cccc mcp` goes into the ACP session (codex gets it in argv from the launch contributor). */
  readonly sessionMcp: boolean;
}

const MANAGED_RUNTIMES: Readonly<Record<string, ManagedRuntime>> = {
  codex: {
    adapter: codexAppServerAdapter,
    runner: 'codex_app_server',
    providerName: 'codex app-server',
    ownedKind: 'codex_app_server',
    storage: (env) => env.CODEX_HOME ?? join(env.HOME ?? '', '.codex'),
    sessionMcp: false,
  },
  // §8.4: one CCCC-owned `opencode acp` session, its TUI attached with `opencode attach`.
  opencode: {
    adapter: opencodeAcpAdapter,
    runner: 'opencode_acp',
    providerName: 'opencode acp',
    ownedKind: 'opencode_acp',
    // opencode's data (sessions) and config roots follow XDG, defaulting under HOME.
    storage: (env) =>
      [env.XDG_DATA_HOME ?? join(env.HOME ?? '', '.local', 'share'), env.XDG_CONFIG_HOME ?? join(env.HOME ?? '', '.config'), env.OPENCODE_CONFIG ?? ''].join('|'),
    sessionMcp: true,
  },
};

export function managedRuntime(runtime: string): ManagedRuntime | undefined {
  return Object.hasOwn(MANAGED_RUNTIMES, runtime) ? MANAGED_RUNTIMES[runtime] : undefined;
}

export const MANAGED_OWNED_KINDS: readonly OwnedKind[] = Object.values(MANAGED_RUNTIMES).map((r) => r.ownedKind);

/**
 * §8.4 `runtime_mode: "acp"` (Antigravity, Copilot, Devin, Cursor: pure headless ACP with no
 * native TUI) is stored and listed, but this daemon has no headless ACP surface for those
 * runtimes yet: a start fails explicitly rather than running the native TUI in its place.
 */
export function acpModeUnavailable(actor: { runtime?: string; runtime_mode?: string }): string | null {
  return actor.runtime_mode === 'acp' ? `runtime_mode acp of ${actor.runtime ?? 'this runtime'} is not available in this daemon (no headless ACP surface); set runtime_mode default` : null;
}

/**
 * The actor-scoped CCCC MCP server for a runtime that takes it at session creation (§8.4
 * opencode); its identity is the launch's (home, group, actor), never anything from actor env.
 */
export function sessionMcpServers(runtime: string, cli: CliLauncher | undefined, identity: { home: string; groupId: string; actorId: string }): ManagedMcpServer[] {
  if (!cli || !managedRuntime(runtime)?.sessionMcp) return [];
  return [{ name: MCP_SERVER_NAME, command: cli.node, args: [cli.cliEntry, 'mcp'], env: { CCCC_HOME: identity.home, CCCC_GROUP_ID: identity.groupId, CCCC_ACTOR_ID: identity.actorId } }];
}
