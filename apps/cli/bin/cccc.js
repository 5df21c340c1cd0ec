#!/usr/bin/env node
// npm links workspace bins at install time, before dist/ exists; this committed shim defers to
// the built entry so `npx --no-install cccc` works after `npm ci && npm run build`.
// `cccc hook <name>` takes a fast path that does not build the whole command tree: agents wait
// on it at every tool call.
const FAST_HOOKS = new Set(['claude-activity', 'claude-state', 'codex-state']);
const entry = process.argv[2] === 'hook' && FAST_HOOKS.has(process.argv[3]) ? '../dist/hook-cli.js' : '../dist/cli.js';
import(entry).catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('/dist/')) {
    process.stderr.write('cccc: not built yet; run `npm run build` at the repository root\n');
    process.exit(1);
  }
  throw error;
});
