import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    newest = Math.max(newest, st.isDirectory() ? newestSource(p) : st.mtimeMs);
  }
  return newest;
}

/** Child-process tests run the built package; rebuild it when the sources are newer. */
export function ensureDist(): string {
  const entry = join(root, 'dist/index.js');
  if (!existsSync(entry) || statSync(entry).mtimeMs < newestSource(join(root, 'src'))) {
    execFileSync('npx', ['tsup'], { cwd: root, stdio: 'ignore' });
  }
  return root;
}
