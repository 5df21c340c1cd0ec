import { isMcpWiredRuntime, withMcpLaunchArgs } from '@cccc/mcp/launch';
import type { LaunchContributor } from '@cccc/pty-runtime';

import type { CliLauncher } from './cli-launcher.js';

/** How to run `cccc mcp`: the node executable and the absolute CLI entry. */
export type McpServerLauncher = CliLauncher;

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

