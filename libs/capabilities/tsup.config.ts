import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: declarations(true),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod', 'vitest'],
  // The packaged default allowlist ships beside the code in dist/ (see default-allowlist.ts).
  onSuccess: 'cp resources/capability-allowlist.default.yaml dist/',
});
