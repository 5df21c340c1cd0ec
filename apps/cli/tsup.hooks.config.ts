import { defineConfig } from 'tsup';

// The fast paths bin/cccc.js takes for `cccc hook <name>` and `cccc ping|send|reply`: one
// self-contained file each with every workspace package inlined, so they resolve no package at
// run time and load only what they run. Built after tsup.config.ts (whose `clean` would
// otherwise race with it).
export default defineConfig([
  {
    // The state hooks: CommonJS, required by the CommonJS bin shim, so node never starts its ESM
    // loader for them (measurably slower to start than `node file.cjs`).
    entry: { 'hook-cli': 'src/hook-cli.ts' },
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    splitting: false,
    dts: false,
    sourcemap: false,
    clean: false,
    noExternal: [/^@cccc\//],
  },
  {
    // `cccc ping|send|reply` (src/cli-fast.ts): CommonJS for the same reason; node builtins only.
    entry: { 'cli-fast': 'src/cli-fast.ts' },
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    splitting: false,
    dts: false,
    sourcemap: false,
    clean: false,
    noExternal: [/^@cccc\//],
  },
  {
    // The session recorder, imported by hook-cli.cjs on demand. Its third-party deps (zod, and
    // fs-ext, a native addon that cannot be inlined) stay plain imports.
    entry: { 'hook-activity': 'src/hook-activity.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: false,
    dts: false,
    sourcemap: false,
    clean: false,
    noExternal: [/^@cccc\//],
    external: ['zod', 'fs-ext'],
  },
]);
