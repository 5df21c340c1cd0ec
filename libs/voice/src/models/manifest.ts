import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { isSafeRelativePath } from './archive-entry.js';
import { BUILTIN_VOICE_MODELS } from './builtin-manifest.js';

/** One downloadable file of a model: where it lands, where it comes from, and what it must be. */
export const VoiceModelArtifact = z.object({
  /** File name inside the model directory (one safe component). */
  path: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/),
  url: z.string().regex(/^(https?|file):\/\//),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Exact size in bytes: a download is cut off the moment it exceeds this. */
  size: z.number().int().positive(),
  /**
   * A `tar.gz` / `tar.bz2` archive (the form most sherpa-onnx models ship in): verified like any
   * artifact, then extracted into the model directory and removed; its entries are checked.
   */
  extract: z.enum(['tar.gz', 'tar.bz2']).optional(),
});
export type VoiceModelArtifact = z.infer<typeof VoiceModelArtifact>;

/**
 * The sherpa-onnx streaming recognizer the model feeds: which architecture and which artifact
 * plays which role. Only architectures the worker knows how to configure are accepted.
 */
export const StreamingModelConfig = z.discriminatedUnion('type', [
  z.object({ type: z.literal('transducer'), encoder: z.string(), decoder: z.string(), joiner: z.string(), tokens: z.string() }),
  z.object({ type: z.literal('paraformer'), encoder: z.string(), decoder: z.string(), tokens: z.string() }),
  z.object({ type: z.literal('zipformer2_ctc'), model: z.string(), tokens: z.string() }),
  // T-one CTC layout: raw 8 kHz samples in, CTC log-probs out (the recognizer resamples). The
  // synthetic test model (test-fixtures/make_synthetic_asr_model.py) uses it because it needs no
  // filterbank features and a single small state tensor.
  z.object({ type: z.literal('tone_ctc'), model: z.string(), tokens: z.string() }),
]);
export type StreamingModelConfig = z.infer<typeof StreamingModelConfig>;

export const VoiceModelEntry = z
  .object({
    model_id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/),
    kind: z.literal('asr').default('asr'),
    title: z.string().optional(),
    languages: z.array(z.string()).optional(),
    runtime: z.literal('sherpa_onnx_streaming').default('sherpa_onnx_streaming'),
    sample_rate: z.number().int().positive().default(16000),
    recognizer: StreamingModelConfig,
    artifacts: z.array(VoiceModelArtifact).min(1),
  })
  .superRefine((m, ctx) => {
    if (new Set(m.artifacts.map((a) => a.path)).size !== m.artifacts.length) ctx.addIssue({ code: 'custom', message: 'duplicate artifact path' });
    const plain = new Set(m.artifacts.filter((a) => !a.extract).map((a) => a.path));
    const archives = m.artifacts.some((a) => a.extract);
    const { type: _t, ...roles } = m.recognizer;
    for (const file of Object.values(roles)) {
      // A plain artifact, or (with an archive) a relative path inside it, checked after extraction.
      if (!plain.has(file) && !(archives && isSafeRelativePath(file))) {
        ctx.addIssue({ code: 'custom', message: `recognizer file ${file} is neither a plain artifact nor a safe path inside an archive artifact` });
      }
    }
  });
export type VoiceModelEntry = z.infer<typeof VoiceModelEntry>;

export const VoiceModelManifest = z.object({ models: z.array(VoiceModelEntry) });
export type VoiceModelManifest = z.infer<typeof VoiceModelManifest>;

/** The local overlay: CCCC_HOME/config/voice-models.json. */
export const overlayManifestPath = (home: string) => join(home, 'config', 'voice-models.json');

/** A stable hash of one model's manifest entry, so an install records exactly what it installed. */
export function entryDigestInput(entry: VoiceModelEntry): string {
  return JSON.stringify({ recognizer: entry.recognizer, artifacts: entry.artifacts, sample_rate: entry.sample_rate });
}

/**
 * The effective manifest: the built-in default, with overlay entries replacing built-in ones of
 * the same model_id. A malformed overlay is `voice_model_manifest_invalid`, never silently skipped.
 */
export async function loadVoiceModelManifest(home: string): Promise<VoiceModelEntry[]> {
  const byId = new Map<string, VoiceModelEntry>();
  for (const m of VoiceModelManifest.parse({ models: BUILTIN_VOICE_MODELS }).models) byId.set(m.model_id, m);
  let text: string | undefined;
  try {
    text = await readFile(overlayManifestPath(home), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw voiceError(VoiceErrorCodes.ioError, `cannot read voice model overlay: ${(err as Error).message}`);
  }
  if (text !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw voiceError(VoiceErrorCodes.modelManifestInvalid, 'voice-models.json is not JSON', { path: overlayManifestPath(home) });
    }
    const parsed = VoiceModelManifest.safeParse(raw);
    if (!parsed.success) {
      throw voiceError(VoiceErrorCodes.modelManifestInvalid, 'voice-models.json does not match the manifest schema', {
        path: overlayManifestPath(home),
        issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
      });
    }
    for (const m of parsed.data.models) byId.set(m.model_id, m);
  }
  return [...byId.values()];
}
