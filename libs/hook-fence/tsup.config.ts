import { defineConfig } from 'tsup';

// zod resolves from the workspace root (it is @cccc/ipc-protocol's dependency); keep it external.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod'],
});
