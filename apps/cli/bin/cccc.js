#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json) on purpose: `cccc hook <name>` runs at every tool call of an agent,
// and `cccc ping|send|reply` are what agents and scripts call most; a CommonJS main with a
// CommonJS bundle starts without node's ESM loader.
// npm links workspace bins at install time, before dist/ exists; this committed shim defers to
// the built entry so `npx --no-install cccc` works after `npm ci && npm run build`.
const FAST_HOOKS = new Set(['claude-activity', 'claude-state', 'codex-state']);
const FAST_COMMANDS = new Set(['ping', 'send', 'reply']);

function notBuilt(error) {
  const code = error && error.code;
  const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ENOENT';
  if (missing && String(error.message).includes('/dist/')) {
    process.stderr.write('cccc: not built yet; run `npm run build` at the repository root\n');
    process.exit(1);
  }
  throw error;
}

// The full CLI runs from the V8 code cache the build writes beside it (see code-cache.js).
function fullCli() {
  try {
    require('./code-cache.js').runWithCodeCache(require('node:path').join(__dirname, '..', 'dist', 'cli.cjs'));
  } catch (error) {
    notBuilt(error);
  }
}

if (process.argv[2] === 'hook' && FAST_HOOKS.has(process.argv[3])) {
  try {
    require('../dist/hook-cli.cjs');
  } catch (error) {
    notBuilt(error);
  }
} else if (FAST_COMMANDS.has(process.argv[2])) {
  // The fast path runs the command lines it fully understands and hands back the rest.
  let handled = false;
  try {
    handled = require('../dist/cli-fast.cjs').tryRunFast(process.argv);
  } catch (error) {
    notBuilt(error);
  }
  if (!handled) fullCli();
} else if (process.argv.length === 4 && process.argv[2] === 'daemon' && process.argv[3] === 'run') {
  // The long-lived daemon process loads the daemon, not the whole command tree.
  import('../dist/daemon-run.js').catch(notBuilt);
} else {
  fullCli();
}
