import { existsSync, readFileSync } from 'node:fs';
import { replaceFile, writeFileAtomic } from '@cccc/durable-fs';

/** `state/ledger/manifest.json`, schema 1 exactly as the reference writes it. */
export interface ManifestSegment {
  id: string;
  seq: number;
  path: string;
  compressed: boolean;
  created_at: string;
  sealed_at: string;
  reason: string;
  size_bytes: number;
  line_count: number;
}

export interface Manifest {
  schema: 1;
  active: { path: string };
  next_segment_seq: number;
  segments: ManifestSegment[];
  updated_at: string;
}

export function emptyManifest(): Manifest {
  return { schema: 1, active: { path: 'ledger.jsonl' }, next_segment_seq: 1, segments: [], updated_at: '' };
}

/**
 * A missing or unreadable manifest is not fatal: segments on disk are the truth and the
 * manifest is reconciled from them before the next rotation.
 */
export function readManifest(path: string): Manifest {
  if (!existsSync(path)) return emptyManifest();
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
    if (raw.schema !== 1 || !Array.isArray(raw.segments)) return emptyManifest();
    return {
      schema: 1,
      active: raw.active ?? { path: 'ledger.jsonl' },
      next_segment_seq: typeof raw.next_segment_seq === 'number' ? raw.next_segment_seq : 1,
      segments: raw.segments,
      updated_at: typeof raw.updated_at === 'string' ? raw.updated_at : '',
    };
  } catch {
    return emptyManifest();
  }
}

/** Durable on return (tmp, fsync, rename, directory fsync), all on the thread pool. */
export async function writeManifest(path: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(manifest, null, 2) + '\n');
}

/**
 * The manifest's content on disk and in place (tmp, fsync, rename), its directory entry not yet
 * durable: the caller fsyncs the ledger directory later (`fsyncDir`). A manifest is a record of
 * the segments on disk, reconciled from them when a crash leaves it behind or ahead.
 */
export async function replaceManifest(path: string, manifest: Manifest): Promise<void> {
  await replaceFile(path, JSON.stringify(manifest, null, 2) + '\n');
}
