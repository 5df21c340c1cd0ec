import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FileLock, fsyncDir, writeFileAtomic } from '@cccc/durable-fs';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { extractArchive } from './extract-archive.js';
import { fetchArtifact } from './fetch-artifact.js';
import { loadVoiceModelManifest, type VoiceModelEntry } from './manifest.js';
import { INSTALLED_RECORD, modelPaths, PREVIOUS_PREFIX, STAGING_PREFIX } from './model-paths.js';
import { manifestSha256, voiceModelRecord, type InstallState, type InstalledRecord, type VoiceModelRecord } from './model-status.js';

export interface InstallOptions {
  /** Per-artifact time bound; default 30 minutes. */
  readonly artifactTimeoutMs?: number;
  readonly now?: () => Date;
  /** Bound on the files one archive artifact may extract to; default 8 GiB. */
  readonly maxExtractedBytes?: number;
}

const DEFAULT_ARTIFACT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_MAX_EXTRACTED_BYTES = 8 * 1024 ** 3;

/** The manifest entry for `modelId`, or `voice_model_not_found`. */
export async function findVoiceModel(home: string, modelId: string): Promise<VoiceModelEntry> {
  const entry = (await loadVoiceModelManifest(home)).find((m) => m.model_id === modelId);
  if (!entry) throw voiceError(VoiceErrorCodes.modelNotFound, `no voice model ${modelId} in the manifest`, { model_id: modelId });
  return entry;
}

/**
 * Leftovers of installs that died, cleared under the lock: staging directories are dropped; a
 * previous copy left aside by an install killed between its two renames is put back when no
 * active copy exists (it was complete: it carries its installed record), else dropped.
 */
async function dropLeftovers(root: string, active: string): Promise<void> {
  for (const name of await readdir(root)) {
    const path = join(root, name);
    if (name.startsWith(PREVIOUS_PREFIX) && !existsSync(active) && existsSync(join(path, INSTALLED_RECORD))) {
      await rename(path, active);
    } else if (name.startsWith(STAGING_PREFIX) || name.startsWith(PREVIOUS_PREFIX)) {
      await rm(path, { recursive: true, force: true });
    }
  }
}

/**
 * Download every artifact of `modelId` into a fresh staging directory, verify size and sha256 of
 * each, write the installed record, and only then switch staging in by rename. The active model is
 * never written in place: a failure, a wrong checksum or a killed process leaves the previous
 * active model (or none) exactly as it was, plus a note that `voiceModelRecord` reports.
 */
export async function installVoiceModel(home: string, modelId: string, options: InstallOptions = {}): Promise<VoiceModelRecord> {
  const now = options.now ?? (() => new Date());
  const entry = await findVoiceModel(home, modelId);
  const paths = modelPaths(home, entry.model_id);
  await mkdir(paths.root, { recursive: true });
  const lock = FileLock.tryAcquire(paths.lock);
  if (!lock) throw voiceError(VoiceErrorCodes.modelInstallBusy, `voice model ${modelId} is already being installed`, { model_id: modelId });
  const started_at = now().toISOString();
  const total_bytes = entry.artifacts.reduce((n, a) => n + a.size, 0);
  const note = (s: Omit<InstallState, 'pid' | 'started_at' | 'updated_at'>) =>
    writeFileAtomic(paths.installState, JSON.stringify({ ...s, pid: process.pid, started_at, updated_at: now().toISOString() }));
  const staging = join(paths.root, `${STAGING_PREFIX}${process.pid}-${Date.now()}`);
  try {
    await dropLeftovers(paths.root, paths.active);
    await note({ status: 'downloading', bytes_done: 0, total_bytes });
    await mkdir(staging);
    let bytes_done = 0;
    let lastNote = 0;
    for (const artifact of entry.artifacts) {
      await fetchArtifact(artifact, join(staging, artifact.path), {
        timeoutMs: options.artifactTimeoutMs ?? DEFAULT_ARTIFACT_TIMEOUT_MS,
        onBytes: (n) => {
          bytes_done += n;
          // Progress is advisory; a note per second keeps status reads honest without a write per chunk.
          if (Date.now() - lastNote > 1000) {
            lastNote = Date.now();
            void note({ status: 'downloading', bytes_done, total_bytes }).catch(() => undefined);
          }
        },
      });
    }
    await unpackArchives(entry, staging, options.maxExtractedBytes ?? DEFAULT_MAX_EXTRACTED_BYTES);
    const record: InstalledRecord = { model_id: entry.model_id, installed_at: now().toISOString(), manifest_sha256: manifestSha256(entry) };
    await writeFileAtomic(join(staging, INSTALLED_RECORD), JSON.stringify(record, null, 2));
    await switchIn(paths.active, staging, paths.root);
    await rm(paths.installState, { force: true });
    await fsyncDir(paths.root);
  } catch (err) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    const e = err as { code?: string; message?: string; details?: Record<string, unknown> };
    const code = e.code?.startsWith('voice_model_') ? e.code : VoiceErrorCodes.modelDownloadFailed;
    await note({ status: 'failed', error: { code, message: e.message ?? String(err), ...(e.details ? { details: e.details } : {}) } }).catch(() => undefined);
    lock.release();
    if (code === e.code) throw err;
    throw voiceError(VoiceErrorCodes.modelDownloadFailed, e.message ?? String(err), { model_id: modelId });
  }
  lock.release();
  return voiceModelRecord(home, entry);
}

/**
 * Extract every verified archive artifact into staging (then drop the archive), and check that
 * each file the recognizer names is now a regular file there.
 */
async function unpackArchives(entry: VoiceModelEntry, staging: string, maxBytes: number): Promise<void> {
  const archives = entry.artifacts.filter((a) => a.extract);
  if (archives.length === 0) return;
  const reserved = new Set([...entry.artifacts.map((a) => a.path), INSTALLED_RECORD]);
  for (const a of archives) {
    await extractArchive(join(staging, a.path), staging, a.extract!, { reserved, maxBytes });
    await rm(join(staging, a.path), { force: true });
  }
  const { type: _t, ...roles } = entry.recognizer;
  for (const file of Object.values(roles)) {
    const st = await lstat(join(staging, file)).catch(() => undefined);
    if (!st?.isFile()) throw voiceError(VoiceErrorCodes.modelArchiveInvalid, `recognizer file ${file} is not in the extracted archive`, { file });
  }
}

/** Move the old active copy aside, rename staging into place, then drop the old copy. */
async function switchIn(active: string, staging: string, root: string): Promise<void> {
  const previous = join(root, `${PREVIOUS_PREFIX}${process.pid}-${Date.now()}`);
  let moved = false;
  try {
    await rename(active, previous);
    moved = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw voiceError(VoiceErrorCodes.modelReplaceFailed, `cannot move the active model aside: ${(err as Error).message}`);
  }
  try {
    await rename(staging, active);
  } catch (err) {
    if (moved) await rename(previous, active).catch(() => undefined);
    throw voiceError(VoiceErrorCodes.modelReplaceFailed, `cannot switch the verified model in: ${(err as Error).message}`);
  }
  await fsyncDir(root);
  if (moved) await rm(previous, { recursive: true, force: true });
}
