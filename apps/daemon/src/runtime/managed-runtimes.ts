import { join } from 'node:path';
import { MCP_SERVER_NAME } from '@cccc/mcp/launch';
import { antigravityProviderHome, codexAppServerAdapter, headlessAcpAdapter, kiloAcpAdapter, opencodeAcpAdapter, type ManagedMcpServer, type RuntimeAdapter } from '@cccc/pty-runtime';
import type { ManagedStateSource } from '@cccc/hook-fence';
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
  /**
   * The actor's `cccc mcp` is handed to the adapter for the ACP session or its process (codex
   * gets it in argv from the launch contributor).
   */
  readonly sessionMcp: boolean;
  /** Pure headless (§8.4 `runtime_mode: "acp"`): no native TUI, nothing runs in the actor's PTY. */
  readonly headless?: boolean;
  /** `runtime_state_source` of its running actors. */
  readonly stateSource: ManagedStateSource;
  /**
   * The provider stores no empty session (Copilot, Devin, Cursor): a receipt whose session never
   * had a prompt attempted starts fresh; an attempted one must load or fail (§8.4).
   */
  readonly volatileEmptySessions?: boolean;
}

/** §8.4 pure headless ACP of an acp-mode actor (derived runner `headless`). */
function headlessAcp(runtime: 'antigravity' | 'copilot' | 'devin' | 'cursor', providerName: string, storage: ManagedRuntime['storage']): ManagedRuntime {
  return {
    adapter: headlessAcpAdapter(runtime),
    runner: 'headless',
    providerName,
    ownedKind: 'headless_acp',
    storage,
    sessionMcp: true,
    headless: true,
    stateSource: 'managed_session',
    volatileEmptySessions: runtime !== 'antigravity',
  };
}

/** The native CLI's own login and configuration: its sessions live under the person's HOME. */
const nativeHome: ManagedRuntime['storage'] = (env) => env.HOME ?? '';

const MANAGED_RUNTIMES: Readonly<Record<string, ManagedRuntime>> = {
  codex: {
    adapter: codexAppServerAdapter,
    runner: 'codex_app_server',
    providerName: 'codex app-server',
    ownedKind: 'codex_app_server',
    storage: (env) => env.CODEX_HOME ?? join(env.HOME ?? '', '.codex'),
    sessionMcp: false,
    stateSource: 'app_server',
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
    // The ACP session's updates decide the state (spec: runtime_state_source managed_session).
    stateSource: 'managed_session',
  },
  // §8.4: Kilo has opencode's managed-session ownership; its storage identity includes KILO_DB
  // and its effective home/config roots (the real Kilo CLI honours KILO_DB; its data and config
  // otherwise live under the XDG roots, `kilo/kilo.db` and `kilo/`).
  kilo: {
    adapter: kiloAcpAdapter,
    runner: 'kilo_acp',
    providerName: 'kilo acp',
    ownedKind: 'kilo_acp',
    storage: (env) =>
      [
        env.KILO_DB ?? '',
        env.HOME ?? '',
        env.XDG_DATA_HOME ?? join(env.HOME ?? '', '.local', 'share'),
        env.XDG_CONFIG_HOME ?? join(env.HOME ?? '', '.config'),
        env.KILO_CONFIG ?? '',
      ].join('|'),
    sessionMcp: true,
    // The ACP session's updates decide the state (spec: runtime_state_source managed_session).
    stateSource: 'managed_session',
  },
  // Keyed `<runtime>:acp`: the same runtime in its default mode runs its native TUI instead.
  'antigravity:acp': headlessAcp('antigravity', 'agy --acp', (env) => antigravityProviderHome(env.CCCC_HOME ?? '')),
  'copilot:acp': headlessAcp('copilot', 'copilot --acp', (env) => env.COPILOT_HOME ?? nativeHome(env)),
  'devin:acp': headlessAcp('devin', 'devin acp', nativeHome),
  'cursor:acp': headlessAcp('cursor', 'cursor-agent acp', nativeHome),
};

/** The registry key of an actor's managed surface: its runtime, or `<runtime>:acp` in acp mode. */
export function managedKey(actor: { runtime?: string; runtime_mode?: string }): string {
  return actor.runtime_mode === 'acp' ? `${actor.runtime ?? ''}:acp` : (actor.runtime ?? '');
}

export function managedRuntime(key: string): ManagedRuntime | undefined {
  return Object.hasOwn(MANAGED_RUNTIMES, key) ? MANAGED_RUNTIMES[key] : undefined;
}

export const MANAGED_OWNED_KINDS: readonly OwnedKind[] = [...new Set(Object.values(MANAGED_RUNTIMES).map((r) => r.ownedKind))];

/**
 * §8.4 `runtime_mode: "acp"` runs managed only where this daemon has its headless ACP surface
 * (Antigravity, Copilot, Devin, Cursor); anything else stored with it fails its start explicitly.
 */
export function acpModeUnavailable(actor: { runtime?: string; runtime_mode?: string }): string | null {
  if (actor.runtime_mode !== 'acp' || managedRuntime(managedKey(actor))) return null;
  return `runtime_mode acp of ${actor.runtime ?? 'this runtime'} is not available in this daemon (no headless ACP surface); set runtime_mode default`;
}

/**
 * The actor-scoped CCCC MCP server for a runtime that takes it at session creation (§8.4
 * opencode); its identity is the launch's (home, group, actor), never anything from actor env.
 */
export function sessionMcpServers(key: string, cli: CliLauncher | undefined, identity: { home: string; groupId: string; actorId: string }): ManagedMcpServer[] {
  if (!cli || !managedRuntime(key)?.sessionMcp) return [];
  return [{ name: MCP_SERVER_NAME, command: cli.node, args: [cli.cliEntry, 'mcp'], env: { CCCC_HOME: identity.home, CCCC_GROUP_ID: identity.groupId, CCCC_ACTOR_ID: identity.actorId } }];
}
