import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

// zod and croner resolve from node_modules at run time; keep them external.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: declarations(true),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod', 'croner'],
});
