import type { Command } from 'commander';
import { cliEntry } from '../cli-entry.js';

const IDENTITY_KEYS = ['CCCC_HOME', 'CCCC_GROUP_ID', 'CCCC_ACTOR_ID'] as const;

export function registerMcpCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('mcp')
    .description('run the MCP server for one actor over stdio (identity from CCCC_HOME, CCCC_GROUP_ID, CCCC_ACTOR_ID)')
    .option('--print-config', 'print the MCP server configuration for a runtime wired by hand, then exit')
    .option('--runtime <runtime>', 'with --print-config: claude (--mcp-config JSON) or codex (-c overrides)', 'claude')
    .action(async (opts: { printConfig?: boolean; runtime: string }) => {
      // Loaded on demand so other commands never pay for the MCP SDK, and `cccc mcp` never loads the daemon.
      const mcp = await (await import('../packages.js')).importMcp();
      if (opts.printConfig) {
        if (!mcp.isMcpWiredRuntime(opts.runtime)) {
          process.stderr.write(`error: --runtime must be claude or codex (got ${opts.runtime})\n`);
          setExit(2);
          return;
        }
        const env: Record<string, string> = {};
        for (const key of IDENTITY_KEYS) if (process.env[key]) env[key] = process.env[key]!;
        process.stdout.write(mcp.printMcpConfig(opts.runtime, { node: process.execPath, cliEntry: cliEntry(), env }));
        return;
      }
      setExit(await mcp.runMcpStdio({ env: process.env, stderr: process.stderr }));
    });
}
