import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every entry under `root` (but `skip`), with what identifies its content: a before/after snapshot. */
export function treeSnapshot(root: string, skip: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (skip.includes(path)) continue;
      const st = lstatSync(path);
      const rel = relative(root, path);
      if (st.isSymbolicLink()) out.set(rel, `link -> ${readlinkSync(path)}`);
      else if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(path);
      } else out.set(rel, `file ${st.size} ${st.mtimeMs}`);
    }
  };
  walk(root);
  return out;
}

export function treeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [path, what] of after) if (before.get(path) !== what) changes.push(`${before.has(path) ? 'changed' : 'new'}: ${path} (${what})`);
  for (const path of before.keys()) if (!after.has(path)) changes.push(`gone: ${path}`);
  return changes;
}

/** Files under `root` (but `skip`) whose bytes contain `needle`. */
export function filesContaining(root: string, needle: string | Buffer, skip: (path: string) => boolean = () => false): string[] {
  const bytes = typeof needle === 'string' ? Buffer.from(needle) : needle;
  const hits: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (skip(path)) continue;
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) {
        try {
          if (readFileSync(path).includes(bytes)) hits.push(relative(root, path));
        } catch {
          // vanished (a temp file renamed meanwhile)
        }
      }
    }
  };
  walk(root);
  return hits;
}
