import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'asr-host': 'src/asr/sherpa-host.ts' },
  format: ['esm'],
  dts: declarations({ entry: { index: 'src/index.ts', testing: 'src/testing.ts' } }),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod', 'vitest', 'sherpa-onnx-node', 'tar', 'unbzip2-stream'],
});
