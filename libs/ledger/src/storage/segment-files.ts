import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ledgerError, LedgerErrorCodes } from '../errors.js';

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

/** A segment whole (a .gz decompressed): for .gz reads and rare whole-segment checks only. */
export function readSegmentBytes(seg: SegmentFile): Buffer {
  const raw = readFileSync(seg.path);
  return seg.compressed ? gunzipSync(raw) : raw;
}

/** A tiny cache of decompressed .gz segments: id lookups tend to hit the same one repeatedly. */
export class SegmentCache {
  private entries: Array<{ key: string; bytes: Buffer }> = [];
  constructor(private readonly capacity = 2) {}

  get(seg: SegmentFile): Buffer {
    const key = seg.path;
    const hit = this.entries.find((e) => e.key === key);
    if (hit) return hit.bytes;
    const bytes = readSegmentBytes(seg);
    this.entries.unshift({ key, bytes });
    this.entries.length = Math.min(this.entries.length, this.capacity);
    return bytes;
  }

  /** Decompressed bytes held now (observability and tests). */
  get bytes(): number {
    return this.entries.reduce((n, e) => n + e.bytes.length, 0);
  }

  clear(): void {
    this.entries = [];
  }
}
