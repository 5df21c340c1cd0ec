import { defineConfig } from 'tsup';

// `cccc hook <name>` (bin/cccc.js fast path): each entry is one self-contained file with every
// workspace package inlined, so a hook resolves no package at run time and loads only what it
// runs. Built after tsup.config.ts (whose `clean` would otherwise race with it).
export default defineConfig({
  entry: { 'hook-cli': 'src/hook-cli.ts', 'hook-activity': 'src/hook-activity.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: false,
  dts: false,
  sourcemap: false,
  clean: false,
  // Workspace packages are inlined; the recorder's third-party deps (zod, and fs-ext, a native
  // addon that cannot be inlined) stay plain imports. The state hooks import neither.
  noExternal: [/^@cccc\//],
  external: ['zod', 'fs-ext'],
});
