import { defineConfig } from 'tsup';

export default defineConfig({
  // hook-cli is the fast path bin/cccc.js takes for `cccc hook <name>` (see src/hook-main.ts).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'hook-cli': 'src/hook-cli.ts' },
  format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'node20',
});
