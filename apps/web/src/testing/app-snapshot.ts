import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { until } from './harness.js';

/**
 * Copy the built app (dist/app) into a temp dir and return it (the caller removes it). Other
 * builds of this package empty dist/app while vite runs; a long browser test serves its own
 * snapshot instead of failing halfway through.
 */
export async function snapshotApp(): Promise<string> {
  const built = resolve(import.meta.dirname, '..', '..', 'dist', 'app');
  await until(() => existsSync(join(built, 'index.html')), 'a built app (npm run build -w @cccc/web)', 60_000);
  const target = mkdtempSync(join(tmpdir(), 'cccc-web-app-'));
  cpSync(built, target, { recursive: true });
  return target;
}
