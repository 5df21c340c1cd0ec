import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  // The worker threads (the background index writer, the maintenance thread of rotations) are
  // loaded by URL: each is emitted at dist/ root, next to the bundle that starts it, as in src it
  // sits next to the module that starts it (index-writer-thread.ts, maintenance-thread.ts).
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    'index-writer-worker': 'src/index-db/index-writer-worker.js',
    'maintenance-worker': 'src/storage/maintenance-worker.js',
  },
  dts: declarations({ entry: { index: 'src/index.ts', testing: 'src/testing.ts' } }),
  format: ['esm'], clean: true, sourcemap: true, target: 'node20',
});
