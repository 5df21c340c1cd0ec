import { lstat, readdir, readFile, rename, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@cccc/durable-fs';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { resolveWithoutSymlinks } from '../safe-path.js';

/** Where document paths resolve: the group's active workspace, else the home's documents dir. */
export interface DocumentRoot {
  readonly root: string;
  readonly storage: 'workspace' | 'home';
}

/** The file's text, or undefined when it is missing, not a regular file, or behind a symlink. */
export async function readDocumentFile(root: string, path: string): Promise<string | undefined> {
  let file: string;
  try {
    file = await resolveWithoutSymlinks(root, path);
  } catch {
    return undefined;
  }
  const st = await lstat(file).catch(() => undefined);
  if (!st?.isFile()) return undefined;
  return readFile(file, 'utf8').catch(() => undefined);
}

export async function writeDocumentFile(root: string, path: string, content: string): Promise<void> {
  const file = await resolveWithoutSymlinks(root, path);
  try {
    await writeFileAtomic(file, content);
  } catch (err) {
    throw voiceError(VoiceErrorCodes.ioError, `cannot write ${path}: ${(err as Error).message}`, { document_path: path });
  }
}

/** Move a document file aside (delete transaction); resolves to the temp path, or undefined when there was no file. */
export async function moveAside(root: string, path: string, tempDir: string): Promise<string | undefined> {
  const file = await resolveWithoutSymlinks(root, path);
  const st = await lstat(file).catch(() => undefined);
  if (!st) return undefined;
  if (!st.isFile()) throw voiceError(VoiceErrorCodes.invalidPath, `${path} is not a regular file`, { document_path: path });
  await mkdir(tempDir, { recursive: true });
  const aside = join(tempDir, `${Date.now()}-${Math.random().toString(16).slice(2)}.md`);
  await rename(file, aside);
  return aside;
}

/**
 * `.md` files under `dir` (relative to `root`), symlinks skipped, bounded in depth and count:
 * repository-relative paths with forward slashes.
 */
export async function discoverMarkdown(root: string, dir: string, limit = 500, depth = 6): Promise<string[]> {
  const out: string[] = [];
  let start: string;
  try {
    start = await resolveWithoutSymlinks(root, dir, 'document_default_dir');
  } catch {
    return out;
  }
  const walk = async (abs: string, rel: string, level: number): Promise<void> => {
    if (level > depth || out.length >= limit) return;
    const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= limit || e.name.startsWith('.')) continue;
      const childRel = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(join(abs, e.name), childRel, level + 1);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) out.push(childRel);
    }
  };
  const st = await lstat(start).catch(() => undefined);
  if (st?.isDirectory()) await walk(start, dir.replace(/\\/g, '/').replace(/\/+$/, ''), 0);
  return out;
}
