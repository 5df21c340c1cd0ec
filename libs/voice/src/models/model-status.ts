import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { FileLock } from '@cccc/durable-fs';
import { entryDigestInput, type VoiceModelEntry } from './manifest.js';
import { modelPaths } from './model-paths.js';

export type VoiceModelStatus = 'not_installed' | 'downloading' | 'ready' | 'failed' | 'unknown';

/** The spec's model record (assistant_voice_model_install result, assistant_state service_models). */
export type VoiceModelRecord = {
  model_id: string;
  status: VoiceModelStatus;
  title?: string;
  install_dir?: string;
  installed_at?: string;
  updated_at?: string;
  error?: Record<string, unknown>;
  last_update_error?: Record<string, unknown>;
  update_available?: boolean;
  installed_manifest_sha256?: string;
  /** While downloading: bytes fetched so far of total_bytes. */
  bytes_done?: number;
  total_bytes?: number;
  artifacts?: Array<{ path: string; url: string; sha256: string; size: number; extract?: 'tar.gz' | 'tar.bz2' }>;
};

/** What an install writes into the model directory last; its presence is what "installed" means. */
export interface InstalledRecord {
  readonly model_id: string;
  readonly installed_at: string;
  readonly manifest_sha256: string;
}

/** The progress / failure note an install keeps beside the model (never inside `active/`). */
export interface InstallState {
  readonly status: 'downloading' | 'failed';
  readonly pid: number;
  readonly started_at: string;
  readonly updated_at: string;
  readonly bytes_done?: number;
  readonly total_bytes?: number;
  readonly error?: { code: string; message: string; details?: Record<string, unknown> };
}

export const manifestSha256 = (entry: VoiceModelEntry) => createHash('sha256').update(entryDigestInput(entry)).digest('hex');

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Whether a live process holds the model's install lock (flock dies with its holder, even on kill -9). */
function installRunning(lockPath: string): boolean {
  const probe = FileLock.tryAcquire(lockPath);
  if (!probe) return true;
  probe.release();
  return false;
}

/**
 * The truth about one model on disk: ready only when the switched-in directory carries its
 * installed record; downloading only while an installer holds the lock; a "downloading" note
 * whose installer is gone is reported as an interrupted install, not as progress.
 */
export async function voiceModelRecord(home: string, entry: VoiceModelEntry): Promise<VoiceModelRecord> {
  const paths = modelPaths(home, entry.model_id);
  const installed = await readJson<InstalledRecord>(paths.installedRecord);
  const state = await readJson<InstallState>(paths.installState);
  const running = state?.status === 'downloading' && installRunning(paths.lock);
  const error: InstallState['error'] | undefined =
    state?.status === 'failed'
      ? state.error
      : state?.status === 'downloading' && !running
        ? { code: 'voice_model_install_interrupted', message: `install by pid ${state.pid} stopped before it finished` }
        : undefined;
  const base: VoiceModelRecord = {
    model_id: entry.model_id,
    status: 'not_installed',
    ...(entry.title ? { title: entry.title } : {}),
    artifacts: entry.artifacts.map(({ path, url, sha256, size, extract }) => ({ path, url, sha256, size, ...(extract ? { extract } : {}) })),
  };
  if (running) {
    return { ...base, status: 'downloading', updated_at: state.updated_at, bytes_done: state.bytes_done ?? 0, total_bytes: state.total_bytes ?? 0, ...(installed ? { install_dir: paths.active, installed_manifest_sha256: installed.manifest_sha256 } : {}) };
  }
  if (installed) {
    return {
      ...base,
      status: 'ready',
      install_dir: paths.active,
      installed_at: installed.installed_at,
      updated_at: installed.installed_at,
      installed_manifest_sha256: installed.manifest_sha256,
      update_available: installed.manifest_sha256 !== manifestSha256(entry),
      ...(error ? { last_update_error: error } : {}),
    };
  }
  if (error) return { ...base, status: 'failed', error, ...(state ? { updated_at: state.updated_at } : {}) };
  return base;
}
