/**
 * How an actor's agent runs `cccc` (its injected hooks, its MCP server): this daemon's node and
 * the absolute CLI entry the CLI handed over (`DaemonConfig.cliEntry`, its bin shim). The daemon
 * never derives it from how its own process was started: through an npm bin symlink argv[1] is
 * `…/.bin/cccc`, which says nothing about where the CLI package is.
 */
export interface CliLauncher {
  readonly node: string;
  readonly cliEntry: string;
}

/** The launcher for a configured CLI entry; undefined when the daemon was started without one. */
export function cliLauncher(cliEntry: string | undefined, node: string = process.execPath): CliLauncher | undefined {
  return cliEntry ? { node, cliEntry } : undefined;
}
