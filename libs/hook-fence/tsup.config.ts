import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

// zod resolves from the workspace root (it is @cccc/ipc-protocol's dependency); keep it external.
export default defineConfig({
  // ./recorder is the session activity recorder alone: `cccc hook claude-activity` loads it on
  // every agent tool call, so it must not pull in the IPC op catalog.
  entry: ['src/index.ts', 'src/recorder.ts'],
  format: ['esm'],
  dts: declarations(true),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod'],
});
