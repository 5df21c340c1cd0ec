import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { isFinalizedDailyFile, isLocalOnlyMemoryFile, dailyFileDate } from './lanes.js';

export interface DailyFile {
  name: string;
  date: string;
  abs: string;
  sha256: string;
  content: string;
}

export interface MemoryManifest {
  last_scan_at: string | null;
  last_success_at: string | null;
  files: Record<string, { sha256: string; source_id: string; synced_at: string }>;
}

/** The finalized daily files of `dailyDir` (day over, non-empty; MEMORY.md never), and how many were empty. */
export function finalizedDailyFiles(dailyDir: string, today: string): { files: DailyFile[]; empty: number } {
  let names: string[];
  try {
    names = readdirSync(dailyDir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return { files: [], empty: 0 };
  }
  const files: DailyFile[] = [];
  let empty = 0;
  for (const name of names) {
    if (isLocalOnlyMemoryFile(name) || !isFinalizedDailyFile(name, today)) continue;
    const abs = join(dailyDir, name);
    const content = readFileSync(abs, 'utf8');
    // A daily file holding only its front matter and title has nothing to recall.
    const body = content.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/^#.*$/gm, '').trim();
    if (body === '') {
      empty++;
      continue;
    }
    files.push({ name, date: dailyFileDate(name)!, abs, sha256: createHash('sha256').update(content).digest('hex'), content });
  }
  return { files, empty };
}

export function readManifest(file: string): MemoryManifest {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Partial<MemoryManifest>;
    return { last_scan_at: doc.last_scan_at ?? null, last_success_at: doc.last_success_at ?? null, files: doc.files ?? {} };
  } catch {
    return { last_scan_at: null, last_success_at: null, files: {} };
  }
}

export function writeManifest(file: string, manifest: MemoryManifest): void {
  writeFileAtomicSync(file, JSON.stringify(manifest, null, 2));
}
