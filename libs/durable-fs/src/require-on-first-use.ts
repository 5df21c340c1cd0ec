/**
 * A CommonJS module (typically a native addon such as better-sqlite3) required on the first call
 * rather than at import, so a process that never uses it never holds it in memory. `from` is the
 * caller's `import.meta.url`: the id resolves from the caller's package, as a static import would.
 * node:module itself is fetched at that first call too (it loads parts of node's ES module loader
 * and source-map support with it), so importing this costs nothing.
 */
export function requireOnFirstUse<T>(from: string | URL, id: string): () => T {
  let loaded: { module: T } | undefined;
  return () => (loaded ??= { module: process.getBuiltinModule('node:module').createRequire(from)(id) as T }).module;
}
