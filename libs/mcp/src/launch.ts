// Also the `@cccc/mcp/launch` subpath: the daemon imports this without loading the MCP SDK.
// Per-launch MCP wiring for runtimes that accept it on the command line. Pure: nothing here
// reads or writes a runtime's global configuration (claude's ~/.claude.json, codex's config.toml).

export type McpWiredRuntime = 'claude' | 'codex';

export interface McpServerCommand {
  /** The node executable. */
  readonly node: string;
  /** Absolute path of the cccc CLI entry (`bin/cccc.js`). */
  readonly cliEntry: string;
  /** Environment for the server (normally CCCC_HOME, CCCC_GROUP_ID, CCCC_ACTOR_ID). */
  readonly env: Readonly<Record<string, string>>;
}

export const MCP_SERVER_NAME = 'cccc';

export function isMcpWiredRuntime(runtime: string): runtime is McpWiredRuntime {
  return runtime === 'claude' || runtime === 'codex';
}

/** claude's `--mcp-config` document: `{"mcpServers":{"cccc":{command,args,env}}}`. */
export function claudeMcpConfig(server: McpServerCommand): { mcpServers: Record<string, unknown> } {
  const entry = { type: 'stdio', command: server.node, args: [server.cliEntry, 'mcp'], ...(Object.keys(server.env).length > 0 ? { env: { ...server.env } } : {}) };
  return { mcpServers: { [MCP_SERVER_NAME]: entry } };
}

/** A TOML basic string (JSON's escapes are a subset TOML accepts). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** codex `-c key=value` overrides; values are TOML, so paths with spaces or quotes stay intact. */
export function codexMcpOverrides(server: McpServerCommand): string[] {
  const prefix = `mcp_servers.${MCP_SERVER_NAME}`;
  const env = Object.entries(server.env).map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`);
  return [
    `${prefix}.command=${tomlString(server.node)}`,
    `${prefix}.args=[${[server.cliEntry, 'mcp'].map(tomlString).join(', ')}]`,
    ...(env.length > 0 ? [`${prefix}.env={ ${env.join(', ')} }`] : []),
  ];
}

/** Extra argv that wires the cccc MCP server into one launch; empty for other runtimes. */
export function mcpLaunchArgs(runtime: string, server: McpServerCommand): string[] {
  if (runtime === 'claude') return ['--mcp-config', JSON.stringify(claudeMcpConfig(server))];
  if (runtime === 'codex') return codexMcpOverrides(server).flatMap((o) => ['-c', o]);
  return [];
}

/** Insert the wiring right after the executable, before any subcommand or prompt argument. */
export function withMcpLaunchArgs(argv: readonly string[], runtime: string, server: McpServerCommand): string[] {
  const extra = mcpLaunchArgs(runtime, server);
  if (extra.length === 0 || argv.length === 0) return [...argv];
  return [argv[0]!, ...extra, ...argv.slice(1)];
}

/** POSIX shell quoting, for the human-readable `--print-config` output only. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The snippet `cccc mcp --print-config` shows for a runtime wired by hand. */
export function printMcpConfig(runtime: McpWiredRuntime, server: McpServerCommand): string {
  if (runtime === 'claude') return `${JSON.stringify(claudeMcpConfig(server), null, 2)}\n`;
  return `${mcpLaunchArgs('codex', server).map(shellQuote).join(' ')}\n`;
}
