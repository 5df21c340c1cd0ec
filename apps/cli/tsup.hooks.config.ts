import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

// @cccc/durable-fs loads its flock addon through `import.meta.url` on first use; the CommonJS
// bundles reach that package only for file writes they never make, and tree-shake its lock
// modules away (cli-fast.test.ts and hook-main.test.ts check no addon is named in them), so
// esbuild's note that `import.meta` is empty in CommonJS is about code that is not emitted.
const quietImportMeta: Options['esbuildOptions'] = (options) => {
  options.logOverride = { ...options.logOverride, 'empty-import-meta': 'silent' };
};

// commander's `require('node:child_process')`, inlined into the full CLI, resolves to a getter that
// loads it at the first spawn (src/bundle/lazy-child-process.cjs says why); every other importer
// gets the real module.
const lazyChildProcessForCommander: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    const lazy = fileURLToPath(new URL('src/bundle/lazy-child-process.cjs', import.meta.url));
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: lazy } : undefined,
    );
  },
};

// The full CLI's imports of src/packages.ts stay requires of dist/packages.cjs, built on its own
// below (src/packages.ts says why); with `dynamic-import` unsupported, esbuild writes each
// `await import('./packages.js')` as a require on first use.
const packagesAsOwnFile: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'packages-as-own-file',
  setup(build) {
    const src = fileURLToPath(new URL('src/', import.meta.url));
    build.onResolve({ filter: /(^|\/)packages\.js$/ }, (args) =>
      args.resolveDir.startsWith(src.replace(/\/$/, '')) ? { path: './packages.cjs', external: true } : undefined,
    );
  },
};

// What every bundle here shares: one file each for node 20, no types, and no `clean` (tsup.config.ts
// cleans dist/ before these run).
const commonJsForNode = {
  format: ['cjs'],
  target: 'node20',
  platform: 'node',
  splitting: false,
  dts: false,
  sourcemap: false,
  clean: false,
} satisfies Options;

// The CommonJS bundles bin/cccc.js requires: the fast paths for `cccc hook <name>` and `cccc
// ping|send|reply` (one self-contained file each with every workspace package inlined, so they
// resolve no package at run time and load only what they run) and the full CLI. Built after
// tsup.config.ts (whose `clean` would otherwise race with it).
export default defineConfig([
  {
    // The state hooks: CommonJS, required by the CommonJS bin shim, so node never starts its ESM
    // loader for them (measurably slower to start than `node file.cjs`).
    entry: { 'hook-cli': 'src/hook-cli.ts' },
    ...commonJsForNode,
    noExternal: [/^@cccc\//],
    esbuildOptions: quietImportMeta,
  },
  {
    // `cccc ping|send|reply` (src/cli-fast.ts): CommonJS for the same reason; node builtins only.
    entry: { 'cli-fast': 'src/cli-fast.ts' },
    ...commonJsForNode,
    noExternal: [/^@cccc\//],
    esbuildOptions: quietImportMeta,
  },
  {
    // The full CLI (src/cli.ts): CommonJS with commander and the workspace libraries it calls and
    // prints with inlined, so a command starts no ESM loader and resolves no package (~1.5x a bare
    // node start here, against ~2.1x for the same code as ES modules and ~1.65x with commander
    // resolved as a package). What only some commands need stays a package imported when they
    // run: the daemon, the Web and MCP servers, the runtime catalog (node-pty) and
    // `@cccc/ipc-protocol/node` (zod and the schemas, behind a stream's DaemonClient). `shims`
    // gives `import.meta.url` its file's URL (cli-entry.ts finds the bin shim by it; durable-fs
    // loads its flock addon by it).
    entry: { cli: 'src/cli.ts' },
    ...commonJsForNode,
    sourcemap: true,
    shims: true,
    noExternal: ['@cccc/ipc-protocol/call', '@cccc/groups/home', '@cccc/durable-fs', /^@cccc\/hook-fence(\/|$)/, '@cccc/web/defaults', 'commander'],
    // tsup would mark `node:` imports external ahead of the plugin below; node 20 needs no stripping.
    removeNodeProtocol: false,
    esbuildPlugins: [lazyChildProcessForCommander, packagesAsOwnFile],
    esbuildOptions(options) {
      options.supported = { ...options.supported, 'dynamic-import': false };
      // A third less to read at every command (~0.4 ms here); names stay, and dist/cli.cjs.map
      // maps a stack trace back (node --enable-source-maps).
      options.minifyWhitespace = true;
    },
    // The first line is the build stamp scripts/write-code-cache.mjs fills in (a hash of the
    // bundle) before it writes the bundle's V8 code cache, which bin/code-cache.js runs it from.
    // commander's notice travels with its inlined copy (its MIT license asks for it).
    banner: {
      js: '/*! cccc-build 0000000000000000 */\n/*! Includes commander 14 (https://github.com/tj/commander.js): MIT License, Copyright (c) 2011 TJ Holowaychuk <tj@vision-media.ca> */',
    },
    onSuccess: 'node scripts/write-code-cache.mjs',
  },
  {
    // The ESM packages the full CLI imports on demand (src/packages.ts): CommonJS, so the bundle
    // requires it, with its import() calls kept for node's own loader.
    entry: { packages: 'src/packages.ts' },
    ...commonJsForNode,
  },
  {
    // The session recorder, imported by hook-cli.cjs on demand. Its third-party deps (zod, and
    // fs-ext, a native addon that cannot be inlined) stay plain imports.
    entry: { 'hook-activity': 'src/hook-activity.ts' },
    ...commonJsForNode,
    format: ['esm'],
    noExternal: [/^@cccc\//],
    external: ['zod', 'fs-ext'],
  },
]);
