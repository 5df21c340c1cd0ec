import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  // The CommonJS bundles bin/cccc.js requires (the full CLI, and the fast paths for `cccc hook
  // <name>` and `cccc ping|send|reply`) are built on their own by tsup.hooks.config.ts.
  entry: { index: 'src/index.ts', 'daemon-run': 'src/daemon-run.ts' },
  format: ['esm'], dts: declarations(true), clean: true, sourcemap: true, target: 'node20',
});
