import { existsSync } from 'node:fs';
import { isMcpWiredRuntime, withMcpLaunchArgs } from '@cccc/mcp/launch';
import type { LaunchContributor } from '@cccc/pty-runtime';

/** How to run `cccc mcp`: the node executable and the absolute CLI entry. */
export interface McpServerLauncher {
  readonly node: string;
  readonly cliEntry: string;
}

/**
 * Wires the actor's own CCCC MCP server into claude and codex launches (claude: `--mcp-config`,
 * codex: `-c mcp_servers.cccc.*`), per launch, so the user's global runtime configuration is
 * never rewritten. The server's identity is the launch's identity, never anything from actor env.
 * Other runtimes pass through untouched.
 */
export function mcpLaunchContributor(launcher: McpServerLauncher): LaunchContributor {
  return {
    name: 'mcp',
    contribute(command, base) {
      if (!isMcpWiredRuntime(base.runtime)) return command;
      const env = { CCCC_HOME: base.home, CCCC_GROUP_ID: base.groupId, CCCC_ACTOR_ID: base.actorId };
      return { ...command, argv: withMcpLaunchArgs(command.argv, base.runtime, { ...launcher, env }) };
    },
  };
}

/**
 * The launcher of this daemon process, started as `node <cli entry> daemon run`; undefined when
 * it was started some other way (in-process tests), so the caller can leave MCP wiring out.
 */
export function currentMcpServerLauncher(argv: readonly string[] = process.argv, node: string = process.execPath): McpServerLauncher | undefined {
  const entry = argv[1];
  if (!entry || !/(?:^|[\\/])(?:cccc\.js|cli\.js)$/.test(entry) || !existsSync(entry)) return undefined;
  return { node, cliEntry: entry };
}
