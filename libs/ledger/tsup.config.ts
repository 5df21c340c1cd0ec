import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  // The background index writer runs in a worker thread loaded by URL: it is emitted at dist/
  // root, next to the bundle that starts it (src/index-db/index-writer-thread.ts).
  entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'index-writer-worker': 'src/index-db/index-writer-worker.js' },
  dts: declarations({ entry: { index: 'src/index.ts', testing: 'src/testing.ts' } }),
  format: ['esm'], clean: true, sourcemap: true, target: 'node20',
});
