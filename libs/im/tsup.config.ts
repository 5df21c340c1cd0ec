import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'bridge-main': 'src/bridge-main.ts' },
  format: ['esm'],
  dts: declarations({ entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'bridge-main': 'src/bridge-main.ts' } }),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod'],
});
