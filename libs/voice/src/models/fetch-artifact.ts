import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import type { VoiceModelArtifact } from './manifest.js';

export interface FetchLimits {
  /** Whole-artifact time bound (connect + body). */
  readonly timeoutMs: number;
  /** Progress callback, at most once per chunk. */
  readonly onBytes?: (bytes: number) => void;
}

async function openSource(url: string, signal: AbortSignal, size: number): Promise<AsyncIterable<Uint8Array>> {
  if (url.startsWith('file://')) return createReadStream(fileURLToPath(url), { signal });
  const res = await fetch(url, { signal, redirect: 'follow' });
  if (!res.ok || !res.body) throw voiceError(VoiceErrorCodes.modelDownloadFailed, `HTTP ${res.status} for ${url}`, { url, http_status: res.status });
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > size) {
    await res.body.cancel();
    throw voiceError(VoiceErrorCodes.modelSizeMismatch, `${url} announces ${declared} bytes, manifest says ${size}`, { url, expected: size, actual: declared });
  }
  return res.body as unknown as AsyncIterable<Uint8Array>;
}

/**
 * Stream one artifact into `dest`, hashing as it goes. The stream is cut off as soon as it
 * exceeds the declared size or the time bound, so a hostile or broken source cannot fill the disk
 * or hang an install. Any mismatch throws; the caller discards the whole staging directory.
 */
export async function fetchArtifact(artifact: VoiceModelArtifact, dest: string, limits: FetchLimits): Promise<void> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new Error(`timed out after ${limits.timeoutMs} ms`)), limits.timeoutMs);
  const out = createWriteStream(dest, { flags: 'wx', mode: 0o644 });
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of await openSource(artifact.url, ac.signal, artifact.size)) {
      bytes += chunk.length;
      if (bytes > artifact.size) {
        throw voiceError(VoiceErrorCodes.modelSizeMismatch, `${artifact.path}: more than the declared ${artifact.size} bytes`, { path: artifact.path, expected: artifact.size });
      }
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      limits.onBytes?.(chunk.length);
    }
    out.end();
    await once(out, 'finish');
    const fd = await import('node:fs/promises').then((fs) => fs.open(dest, 'r'));
    await fd.sync().finally(() => fd.close());
  } catch (err) {
    out.destroy();
    if ((err as { code?: string }).code?.startsWith('voice_model_')) throw err;
    const reason = ac.signal.aborted ? String((ac.signal.reason as Error)?.message ?? 'aborted') : (err as Error).message;
    throw voiceError(VoiceErrorCodes.modelDownloadFailed, `${artifact.path}: ${reason}`, { path: artifact.path, url: artifact.url });
  } finally {
    clearTimeout(timer);
  }
  if (bytes !== artifact.size) {
    throw voiceError(VoiceErrorCodes.modelSizeMismatch, `${artifact.path}: ${bytes} bytes, manifest says ${artifact.size}`, { path: artifact.path, expected: artifact.size, actual: bytes });
  }
  const digest = hash.digest('hex');
  if (digest !== artifact.sha256) {
    throw voiceError(VoiceErrorCodes.modelHashMismatch, `${artifact.path}: sha256 mismatch`, { path: artifact.path, expected: artifact.sha256, actual: digest });
  }
}
