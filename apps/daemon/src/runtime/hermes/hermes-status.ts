import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { HermesStatus } from '@cccc/ipc-protocol';

// The pure part of runtime_hermes_status (§8.4): which Hermes home and profile are selected, and
// what the profile's config says about the cccc MCP server, from facts the IO shell gathered.

export const HERMES_MCP_SERVER = 'cccc';
/** The env a saved cccc MCP entry must carry: placeholders each actor process resolves for itself. */
export const HERMES_MCP_PLACEHOLDERS: Readonly<Record<string, string>> = {
  CCCC_HOME: '${CCCC_HOME}',
  CCCC_GROUP_ID: '${CCCC_GROUP_ID}',
  CCCC_ACTOR_ID: '${CCCC_ACTOR_ID}',
};

/** HERMES_HOME when the user supplies it (ordinary runtime environment), else ~/.hermes; CCCC selects no profile of its own. */
export function hermesHome(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env.HERMES_HOME?.trim();
  return explicit ? explicit : join(env.HOME ?? '', '.hermes');
}

export interface HermesFacts {
  readonly home: string;
  readonly cli: { readonly path?: string; readonly version?: string };
  readonly profileExists: boolean;
  /** config.yaml's text, undefined when absent or unreadable. */
  readonly configText: string | undefined;
  readonly authFileExists: boolean;
  /** The command the cccc MCP entry should run (`node <cli> mcp`); undefined without a CLI entry. */
  readonly expectedMcpCommand: readonly string[] | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cccc entry of `mcp_servers` in the profile's config, checked against the expected command and placeholders. */
export function inspectHermesMcp(configText: string | undefined, expected: readonly string[] | undefined): Record<string, unknown> {
  const base = { server_name: HERMES_MCP_SERVER, expected_command: expected ? [...expected] : null, env_placeholders: { ...HERMES_MCP_PLACEHOLDERS } };
  if (configText === undefined) return { ...base, status: 'missing', configured: false };
  let config: unknown;
  try {
    const doc = parseDocument(configText);
    if (doc.errors.length > 0) return { ...base, status: 'invalid', configured: false };
    config = doc.toJS();
  } catch {
    return { ...base, status: 'invalid', configured: false };
  }
  const servers = isRecord(config) && isRecord(config.mcp_servers) ? config.mcp_servers : {};
  const entry = servers[HERMES_MCP_SERVER];
  if (!isRecord(entry)) return { ...base, status: 'missing', configured: false };
  const command = typeof entry.command === 'string' ? entry.command : '';
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const env = isRecord(entry.env) ? entry.env : {};
  const enabled = !/^(0|false|no|off)$/i.test(String(entry.enabled ?? true));
  const commandMatches = expected !== undefined && command === expected[0];
  const argsMatch = expected !== undefined && args.length === expected.length - 1 && args.every((a, i) => a === expected[i + 1]);
  const placeholdersMatch = Object.entries(HERMES_MCP_PLACEHOLDERS).every(([k, v]) => env[k] === v);
  return {
    ...base,
    status: commandMatches && argsMatch && placeholdersMatch && enabled ? 'ready' : 'stale',
    configured: true,
    command,
    args,
    enabled,
    command_matches: commandMatches,
    args_match: argsMatch,
    // Only whether each placeholder is in place: the saved values are not echoed back.
    env_placeholders_match: placeholdersMatch,
  };
}

export function hermesStatus(facts: HermesFacts): HermesStatus {
  const configPath = join(facts.home, 'config.yaml');
  const mcp = inspectHermesMcp(facts.configText, facts.expectedMcpCommand);
  const authPath = join(facts.home, 'auth.json');
  const auth = { auth_path: authPath, auth_file_exists: facts.authFileExists, status: facts.authFileExists ? 'present' : 'missing' };
  const available = facts.cli.path !== undefined;
  const mcpReady = mcp.status === 'ready';
  const issues: string[] = [];
  if (!available) issues.push('hermes_cli_missing');
  if (!facts.profileExists) issues.push('profile_missing');
  if (facts.configText === undefined) issues.push('config_missing');
  if (!mcpReady) issues.push('cccc_mcp_config_not_ready');
  if (!facts.authFileExists) issues.push('auth_missing');
  const gate = (id: string, pass: boolean, evidence: unknown) => ({ id, status: pass ? 'pass' : 'fail', evidence });
  return {
    runtime: 'hermes',
    setup_ready: facts.profileExists && mcpReady,
    auth_ready: facts.authFileExists,
    launch_ready: available && facts.profileExists && mcpReady,
    hermes_cli: { available, ...(facts.cli.path ? { path: facts.cli.path } : {}), ...(facts.cli.version ? { version: facts.cli.version } : {}) },
    hermes_home: facts.home,
    profile: { name: 'default', dir: facts.home, exists: facts.profileExists, config_path: configPath, config_exists: facts.configText !== undefined },
    mcp,
    auth,
    phase0_gates: [
      gate('hermes_cli_available', available, facts.cli.path ?? null),
      gate('selected_profile_exists', facts.profileExists, facts.home),
      gate('mcp_config_uses_actor_placeholders', mcp.env_placeholders_match === true, HERMES_MCP_PLACEHOLDERS),
      gate('auth_present', facts.authFileExists, authPath),
    ],
    issues,
  };
}
