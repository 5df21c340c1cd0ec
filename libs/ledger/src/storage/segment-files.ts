import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerError, LedgerErrorCodes } from '../errors.js';
import { gunzipAtMost } from './bounded-gunzip.js';
import { GzSegment } from './gz-segment.js';
import { MAX_INFLATED_SEGMENT_BYTES } from './limits.js';

/** One sealed segment as found on disk. `seq` orders segments; the active file comes last. */
export interface SegmentFile {
  seq: number;
  /** Absolute path of the file readers use. */
  path: string;
  /** Path relative to the group directory, as written into the manifest. */
  relPath: string;
  compressed: boolean;
  /** The .gz twin left by a crash between writing the .gz and removing the plain file. */
  gzTwin?: string;
}

const SEGMENT_RE = /^ledger\.(\d{8}T\d{6}Z)\.(\d{6,})\.jsonl(\.gz)?$/;

export function segmentFileName(sealedAt: Date, seq: number): string {
  const stamp = sealedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `ledger.${stamp}.${String(seq).padStart(6, '0')}.jsonl`;
}

/**
 * List physical segments in sequence order. Two different files claiming one sequence is a
 * conflict we refuse to guess about (spec §8.12); a plain file plus its own .gz is the normal
 * leftover of an interrupted gzip step and reads from the plain file.
 */
export function listSegments(segmentsDir: string): SegmentFile[] {
  if (!existsSync(segmentsDir)) return [];
  const bySeq = new Map<number, { stem: string; plain?: string; gz?: string }>();
  for (const name of readdirSync(segmentsDir)) {
    const m = SEGMENT_RE.exec(name);
    if (!m) continue;
    const seq = Number(m[2]);
    const stem = name.replace(/\.gz$/, '');
    const entry = bySeq.get(seq) ?? { stem };
    if (entry.stem !== stem) {
      throw ledgerError(LedgerErrorCodes.segmentConflict, `segments ${entry.stem} and ${stem} both claim sequence ${seq}`, { seq });
    }
    if (m[3]) entry.gz = name;
    else entry.plain = name;
    bySeq.set(seq, entry);
  }
  return [...bySeq.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([seq, e]) => {
      const name = e.plain ?? (e.gz as string);
      const file: SegmentFile = {
        seq,
        path: join(segmentsDir, name),
        relPath: `state/ledger/segments/${name}`,
        compressed: e.plain === undefined,
      };
      if (e.plain && e.gz) file.gzTwin = join(segmentsDir, e.gz);
      return file;
    });
}

/** A segment whole (a .gz decompressed): for the rare whole-segment checks of recovery only. */
export function readSegmentBytes(seg: SegmentFile): Buffer {
  const raw = readFileSync(seg.path);
  return seg.compressed ? gunzipAtMost(raw, MAX_INFLATED_SEGMENT_BYTES, `gzip segment ${seg.path}`) : raw;
}

/** What tells one version of a file from another at the same path. */
interface FileIdentity {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

const identityOf = (st: FileIdentity): FileIdentity => ({ ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
const sameFile = (a: FileIdentity, b: FileIdentity) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * A tiny cache of opened .gz segments (`GzSegment`, which holds the pieces it inflated): id
 * lookups tend to hit the same one repeatedly. Entries outlive the file listing: a rotation or a
 * gzip swap elsewhere in the ledger changes no existing .gz, and each hit checks by one `stat`
 * that the file at the path is still the one opened (same inode, size and mtime); anything else
 * is opened again.
 */
export class SegmentCache {
  private entries: Array<{ key: string; file: FileIdentity; gz: GzSegment }> = [];
  constructor(private readonly capacity = 2) {}

  get(seg: SegmentFile): GzSegment {
    const key = seg.path;
    const at = this.entries.findIndex((e) => e.key === key);
    if (at >= 0) {
      const hit = this.entries[at]!;
      const now = statSync(key, { throwIfNoEntry: false });
      if (now && sameFile(hit.file, now)) return hit.gz;
      this.entries.splice(at, 1);
    }
    const fd = openSync(key, 'r');
    try {
      const entry = { key, file: identityOf(fstatSync(fd)), gz: GzSegment.open(key, fd) };
      this.entries.unshift(entry);
      this.entries.length = Math.min(this.entries.length, this.capacity);
      return entry.gz;
    } finally {
      closeSync(fd);
    }
  }

  /** Decompressed bytes held now (observability and tests). */
  get bytes(): number {
    return this.entries.reduce((n, e) => n + e.gz.heldBytes, 0);
  }

  clear(): void {
    this.entries = [];
  }
}
