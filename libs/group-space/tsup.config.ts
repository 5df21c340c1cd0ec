import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

// zod resolves from the workspace root (it is @cccc/ipc-protocol's dependency); better-sqlite3 is native.
export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing.ts' },
  format: ['esm'],
  dts: declarations({ entry: { index: 'src/index.ts', testing: 'src/testing.ts' } }),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['better-sqlite3', 'vitest'],
});
