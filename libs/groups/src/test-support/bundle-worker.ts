import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Bundle a TypeScript worker entry into an ESM file under this package's node_modules, so a
 * plain `node` child process can run library code (Node 20 cannot run TypeScript itself).
 * Dependencies stay external and resolve from the workspace.
 */
export async function bundleWorker(entry: string): Promise<{ file: string } & Disposable> {
  const outDir = join(here, '..', '..', 'node_modules', '.cccc-test-workers');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `worker-${process.pid}-${Date.now()}.mjs`);
  await build({ entryPoints: [join(here, entry)], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: file, logLevel: 'silent' });
  return { file, [Symbol.dispose]: () => rmSync(file, { force: true }) };
}
