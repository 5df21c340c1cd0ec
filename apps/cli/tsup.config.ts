import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  // hook-cli, the fast path bin/cccc.js takes for `cccc hook <name>`, is bundled on its own by
  // tsup.hooks.config.ts (see src/hook-main.ts).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'daemon-run': 'src/daemon-run.ts' },
  format: ['esm'], dts: declarations(true), clean: true, sourcemap: true, target: 'node20',
});
