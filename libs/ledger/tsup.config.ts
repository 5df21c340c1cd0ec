import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  // The worker threads (the background index writer, a rotation's pre-scan and gzip) are loaded
  // by URL: each is emitted at dist/ root, next to the bundle that starts it, as in src it sits
  // next to the module that starts it (index-writer-thread.ts, active-prescan.ts, segment-gzip.ts).
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    'index-writer-worker': 'src/index-db/index-writer-worker.js',
    'active-prescan-worker': 'src/storage/active-prescan-worker.js',
    'segment-gzip-worker': 'src/storage/segment-gzip-worker.js',
  },
  dts: declarations({ entry: { index: 'src/index.ts', testing: 'src/testing.ts' } }),
  format: ['esm'], clean: true, sourcemap: true, target: 'node20',
});
