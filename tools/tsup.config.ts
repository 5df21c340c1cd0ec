import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/bench.ts', 'src/bench-child.ts'],
  format: ['esm'], clean: true, sourcemap: true, target: 'node20',
});
