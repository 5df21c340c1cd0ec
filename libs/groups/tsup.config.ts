import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

// zod resolves from the workspace root (it is @cccc/ipc-protocol's dependency); keep it external.
export default defineConfig({
  entry: ['src/index.ts', 'src/home.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: declarations(true),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod'],
});
