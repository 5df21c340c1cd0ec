import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The absolute, symlink-free path of this package's committed bin shim (`bin/cccc.js`), found
 * from this module's own location (src/ and dist/ both sit one level below the package root),
 * never from how the process was started: run through an npm bin link, argv[1] is
 * `node_modules/.bin/cccc` or a global `cccc`, which says nothing about where the package is.
 *
 * It is the one CLI entry the daemon we run or start is handed (`DaemonConfig.cliEntry`): agents'
 * injected hooks and MCP server run it, and ping reports it as `executable`. The shim, not
 * dist/cli.cjs, because a hook through it takes the fast CommonJS path (see bin/cccc.js).
 */
export function cliEntry(): string {
  const bin = fileURLToPath(new URL('../bin/cccc.js', import.meta.url));
  if (!existsSync(bin)) throw new Error(`this cccc package has no ${bin}; reinstall it`);
  return realpathSync(bin);
}
