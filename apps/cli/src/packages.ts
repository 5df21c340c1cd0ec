// The ESM-only workspace packages that only some commands need, imported when those commands run
// (each is a large part of a start-up: zod and the schemas, the kernel, the Web and MCP servers,
// node-pty).
//
// In the CLI bundle this module stays a file of its own, dist/packages.cjs, required on first use
// (tsup.hooks.config.ts): the bundle runs from a V8 code cache (bin/code-cache.js), and node 20
// drops the dynamic-import callback of code compiled from a cache, so the bundle's own code must
// hold no import(). A file node loads itself keeps it (code-cache.test.ts checks both).
export const importIpcNode = () => import('@cccc/ipc-protocol/node');
export const importDaemon = () => import('@cccc/daemon');
export const importWeb = () => import('@cccc/web');
export const importMcp = () => import('@cccc/mcp');
export const importPtyRuntime = () => import('@cccc/pty-runtime');
