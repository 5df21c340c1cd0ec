import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '@cccc/durable-fs';
import { hasCode, ledgerError, LedgerErrorCodes } from '../errors.js';
import { gunzipAtMost } from './bounded-gunzip.js';
import type { LedgerIndex } from '../index-db/ledger-index.js';
import type { LedgerPaths } from '../paths.js';
import type { LedgerFiles } from './ledger-files.js';
import { readManifest, replaceManifest, writeManifest, type Manifest, type ManifestSegment } from './manifest.js';
import { listSegments, readSegmentBytes, segmentFileName, type SegmentFile } from './segment-files.js';
import { compactDecision, lastRotationMs, MIN_COMPACT_INTERVAL_MS } from './compact-policy.js';
import type { ActiveScan } from './active-prescan.js';
import type { SegmentVerification } from './segment-verification.js';
import { gzipSegmentFile } from './segment-gzip.js';
import { scanActiveStrict } from './snapshot.js';

/** Reference default: rotate when the active file reaches this size (unless forced). */
export const MAX_ACTIVE_BYTES = 5_000_000;

export interface CompactReport {
  rotated: boolean;
  reason: string;
  segment?: ManifestSegment;
  reconciled: number[];
  compressed: number[];
}

/** Lines as the reference counts them: an unterminated final line is a line too. */
function countLines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i >= 0; i = buf.indexOf(0x0a, i + 1)) n++;
  return buf.length > 0 && buf[buf.length - 1] !== 0x0a ? n + 1 : n;
}

/** The reference stamps manifest times like segment names: YYYYMMDDTHHMMSSZ. */
export function manifestStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

function entryFor(seg: SegmentFile, bytes: Buffer, at: string, reason: string): ManifestSegment {
  const id = String(seg.seq).padStart(6, '0');
  // size_bytes is the size of the file on disk (compressed size for .gz), as in the reference.
  const size = statSync(seg.path).size;
  return { id, seq: seg.seq, path: seg.relPath, compressed: seg.compressed, created_at: at, sealed_at: at, reason, size_bytes: size, line_count: countLines(bytes) };
}

/**
 * Whether a finished .gz twin holds other bytes than the plain segment. A .gz that does not
 * inflate (cut short, e.g. written in place by another implementation) does not count: the plain
 * file is the record. The inflate stops one byte past the plain file's length, so a twin that is
 * a decompression bomb costs no more than the segment itself.
 */
function gzTwinDiffers(gzTwin: string, plain: Buffer): boolean {
  try {
    return !gunzipAtMost(readFileSync(gzTwin), plain.length + 1, `gzip segment ${gzTwin}`).equals(plain);
  } catch (err) {
    return hasCode(err, LedgerErrorCodes.malformedLedger);
  }
}

/**
 * Bring the manifest in line with the segments on disk: sealed bytes are source of truth even
 * when a crash came before their manifest entry. A plain file next to its finished .gz is the
 * leftover of an interrupted gzip step and is resolved only when both hold the same bytes.
 */
function reconcile(paths: LedgerPaths, manifest: Manifest, nowIso: string): { segments: SegmentFile[]; added: number[] } {
  // A gzip that a crash interrupted before its rename: the plain segment is still the record.
  for (const name of readdirSync(paths.segmentsDir)) if (name.endsWith(PARTIAL_GZ)) unlinkSync(join(paths.segmentsDir, name));
  const segments = listSegments(paths.segmentsDir);
  for (const seg of segments) {
    if (!seg.gzTwin) continue;
    const plain = readFileSync(seg.path);
    if (gzTwinDiffers(seg.gzTwin, plain)) {
      throw ledgerError(LedgerErrorCodes.segmentConflict, `segment ${seg.seq} has a plain and a gzip file with different bytes`, { seq: seg.seq });
    }
    // The plain file is complete either way; it is re-gzipped below if older than the newest.
    unlinkSync(seg.gzTwin);
    delete seg.gzTwin;
  }
  const added: number[] = [];
  const bySeq = new Map(manifest.segments.map((m) => [m.seq, m]));
  manifest.segments = segments.map((seg) => {
    const known = bySeq.get(seg.seq);
    if (known && known.compressed === seg.compressed && known.path === seg.relPath) return known;
    const bytes = readSegmentBytes(seg);
    if (!known) added.push(seg.seq);
    return known ? { ...known, path: seg.relPath, compressed: seg.compressed } : entryFor(seg, bytes, nowIso, 'recovered');
  });
  const maxSeq = Math.max(0, ...segments.map((s) => s.seq), ...[...bySeq.keys()]);
  manifest.next_segment_seq = Math.max(manifest.next_segment_seq, maxSeq + 1);
  return { segments, added };
}

/** What a sealing step decided, and the manifest to record once the writer lock is released. */
export interface SealResult {
  readonly report: CompactReport;
  /** The manifest to write (reconciled and/or with the new segment), or undefined when unchanged. */
  readonly manifest: Manifest | undefined;
}

/**
 * Rotate the active file into a sealed segment. The caller holds the maintenance lock and, for
 * this call, the writer lock, so every append acknowledged before it is in the sealed bytes or
 * the new active file. Under the writer lock only what orders the files is done: the rename, the
 * index's range update, the segments directory's sync and the new active file. The manifest is
 * a record of the files, written by the caller after the writer lock is released (still under the
 * maintenance lock): appends never wait on it, and a crash before it is written leaves a segment
 * the manifest does not list yet, which `reconcile` adds from the files at the next rotation.
 * Every sync runs on the thread pool: the event loop keeps serving meanwhile.
 */
export async function sealLocked(
  paths: LedgerPaths,
  files: LedgerFiles,
  index: LedgerIndex,
  opts: {
    now: Date;
    reason: string;
    force: boolean;
    maxActiveBytes?: number;
    minIntervalMs?: number;
    verification: SegmentVerification;
    /** The active file as read strictly before the lock: only what follows it is read here. */
    activeScanned?: ActiveScan;
  },
): Promise<SealResult> {
  if (!existsSync(paths.segmentsDir)) {
    await mkdir(paths.segmentsDir, { recursive: true });
    await fsyncDir(paths.ledgerDir); // the new segments/ entry must survive a crash too
  }
  const manifest = readManifest(paths.manifest);
  const stamp = manifestStamp(opts.now);
  // The rotation time of the newest segment before this call (reconcile may stamp recovered ones now).
  const lastRotation = lastRotationMs(manifest);
  const { segments, added } = reconcile(paths, manifest, stamp);
  files.invalidate();
  const size = existsSync(paths.active) ? statSync(paths.active).size : 0;
  const decision = compactDecision({
    force: opts.force,
    activeBytes: size,
    threshold: opts.maxActiveBytes ?? MAX_ACTIVE_BYTES,
    nowMs: opts.now.getTime(),
    lastRotationMs: lastRotation,
    minIntervalMs: opts.minIntervalMs ?? MIN_COMPACT_INTERVAL_MS,
  });
  // Decided before the strict scan: that scan reads the whole history, and nothing is sealed
  // (so nothing needs checking) when the answer is no.
  if (!decision.rotate) {
    return { report: { rotated: false, reason: decision.reason, reconciled: added, compressed: [] }, manifest: added.length ? { ...manifest, updated_at: stamp } : undefined };
  }
  // Reject damage before rotating: sealing a malformed record would hide it in a segment. Only
  // the active file is read (sealed segments were checked when sealed), in bounded chunks, so a
  // rotation costs the size of what it seals, not of the whole history; and of that, only what
  // was appended after the pre-scan the caller made before taking the lock.
  // Sealed history: checked once per process, before the lock (`SegmentVerification.verifyAll`);
  // here only a segment that changed since is read.
  for (const seg of segments) opts.verification.verify(seg);
  const lineCount = scanActiveStrict(files, opts.activeScanned);

  const seq = manifest.next_segment_seq;
  const name = segmentFileName(opts.now, seq);
  const target = join(paths.segmentsDir, name);
  renameSync(paths.active, target);
  const sealed: SegmentFile = { seq, path: target, relPath: `state/ledger/segments/${name}`, compressed: false };
  const sealedBytes = statSync(target).size;
  const entry: ManifestSegment = { id: String(seq).padStart(6, '0'), seq, path: sealed.relPath, compressed: false, created_at: stamp, sealed_at: stamp, reason: opts.reason, size_bytes: sealedBytes, line_count: lineCount };
  // The index follows the rename in the same turn of the event loop: a read served while the
  // syncs below are in flight finds the sealed rows in the segment and an empty active file,
  // never an index that claims bytes the active file no longer has (which would rebuild it).
  index.exclusive(() => {
    // The active file's rows are the ords above the last sealed one: a rowid range, not a scan.
    index.db.prepare('UPDATE events SET src = ? WHERE ord > ?').run(seq, index.sealedMaxOrd());
    index.setMeta('sealed_max_ord', index.eventCount());
    index.db.prepare('UPDATE damage SET src = ? WHERE src = 0').run(seq);
    index.db.prepare('INSERT OR REPLACE INTO sources(src, lines, bytes) VALUES (?, ?, ?)').run(seq, entry.line_count, sealedBytes);
    index.setMeta('active_hwm', 0);
  });
  files.invalidate();
  opts.verification.markVerified(sealed);
  manifest.segments.push(entry);
  manifest.next_segment_seq = seq + 1;
  manifest.updated_at = stamp;
  // The segment's directory entry, durable before the new active file is created: a crash must
  // never keep the new name and lose the sealed one.
  await fsyncDir(paths.segmentsDir);
  closeSync(openSync(paths.active, 'a', 0o644));
  files.invalidate();
  // The new file's name becomes durable in `recordRotation`, with the writer lock released: an
  // appender fsyncs the group directory itself before it acknowledges the first byte it writes to
  // an active file it had not written before (appender.ts `writeFd`).
  return { report: { rotated: true, reason: opts.reason, segment: entry, reconciled: added, compressed: [] }, manifest };
}

/**
 * After a sealing step released the writer lock (the maintenance lock still held): its manifest
 * written, and the new active file's name and the manifest's rename made durable.
 */
export async function recordRotation(paths: LedgerPaths, sealed: SealResult): Promise<void> {
  if (!sealed.manifest) return;
  if (!sealed.report.rotated) return await writeManifest(paths.manifest, sealed.manifest);
  await replaceManifest(paths.manifest, sealed.manifest);
  await Promise.all([fsyncDir(paths.groupDir), fsyncDir(paths.ledgerDir)]);
}

/** Where a segment's gzip is written before it takes the segment's place. */
const PARTIAL_GZ = '.gz.partial';

/** The sealed segments older than the newest that are still plain: what `compressSegment` takes. */
export function segmentsToCompress(paths: LedgerPaths): number[] {
  const manifest = readManifest(paths.manifest);
  const newest = Math.max(0, ...manifest.segments.map((m) => m.seq));
  return manifest.segments.filter((m) => !m.compressed && m.seq !== newest).map((m) => m.seq);
}

/**
 * Gzip one sealed segment without holding the writer lock or the event loop: a sealed segment
 * never changes, so its bytes are gzipped into a partial file and synced first, on a worker
 * thread at the lowest CPU priority (`gzipSegmentFile`); then the swap (rename, manifest, removal
 * of the plain file). The caller holds the maintenance lock, which every other step that moves
 * segment files or writes the manifest takes too; appends never touch either, so they do not
 * wait for any of it. Readers meanwhile find the plain file (preferred while its .gz twin
 * exists) or, once it is gone, the .gz. The older segments are gzipped; the newest stays plain
 * for cheap follower reads.
 */
export async function compressSegment(
  paths: LedgerPaths,
  seq: number,
  index: LedgerIndex,
  files: LedgerFiles,
  verification: SegmentVerification,
): Promise<boolean> {
  const entry = readManifest(paths.manifest).segments.find((m) => m.seq === seq);
  if (!entry || entry.compressed) return false;
  const plainPath = join(paths.groupDir, entry.path);
  const partial = plainPath + PARTIAL_GZ;
  await gzipSegmentFile(plainPath, partial);
  const manifest = readManifest(paths.manifest);
  const m = manifest.segments.find((x) => x.seq === seq);
  if (!m || m.compressed || !existsSync(plainPath)) {
    unlinkSync(partial);
    return false;
  }
  renameSync(partial, plainPath + '.gz');
  const gz: SegmentFile = { seq, path: plainPath + '.gz', relPath: `${m.path}.gz`, compressed: true };
  // Written from a checked plain segment: the gzip holds the same records.
  verification.markVerified(gz);
  m.compressed = true;
  m.path = `${m.path}.gz`;
  m.size_bytes = statSync(plainPath + '.gz').size;
  // The .gz entry is durable before the plain file goes; the manifest is written beside it (a
  // manifest ahead of the disk is corrected from the files by `reconcile`).
  await Promise.all([fsyncDir(paths.segmentsDir), replaceManifest(paths.manifest, { ...manifest, updated_at: manifestStamp(new Date()) })]);
  await unlink(plainPath); // freeing megabytes of blocks: off the event loop
  index.db.prepare('UPDATE sources SET bytes = ? WHERE src = ?').run(m.size_bytes, m.seq);
  files.invalidate();
  // The removal of the plain file, made durable afterwards: if a crash loses it, `reconcile`
  // finds the plain file beside its identical .gz and resolves the pair.
  await Promise.all([fsyncDir(paths.segmentsDir), fsyncDir(paths.ledgerDir)]);
  return true;
}
