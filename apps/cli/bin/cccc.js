#!/usr/bin/env node
// npm links workspace bins at install time, before dist/ exists; this committed shim defers to
// the built entry so `npx --no-install cccc` works after `npm ci && npm run build`.
import('../dist/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('cccc: not built yet; run `npm run build` at the repository root\n');
    process.exit(1);
  }
  throw error;
});
