import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What every test and manifest entry calls this model, so nobody mistakes it for real ASR. */
export const SYNTHETIC_ASR_MODEL_TITLE = 'synthetic test model, energy detector, not speech recognition';

/** Debian's interpreter, where python3-onnx / python3-numpy are installed (not a pyenv shim). */
const PYTHON = process.env.CCCC_TEST_PYTHON ?? '/usr/bin/python3';

function scriptPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Reached from src/test-support/ (vitest on sources) or from dist/ (the built testing entry).
  for (const rel of ['../../test-fixtures', '../test-fixtures']) {
    const p = join(here, rel, 'make_synthetic_asr_model.py');
    if (existsSync(p)) return p;
  }
  throw new Error('make_synthetic_asr_model.py not found beside @cccc/voice');
}

/**
 * Generates the synthetic model (an energy detector in sherpa-onnx's T-one CTC layout: each tone
 * burst decodes to the token "x") into `dir` and returns a manifest entry whose artifacts point at
 * it with file:// URLs and their real sha256, so it goes through the real install path.
 */
export function makeSyntheticAsrModel(dir: string, model_id = 'synthetic-energy-detector'): Record<string, unknown> {
  execFileSync(PYTHON, [scriptPath(), dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  const artifacts = ['model.onnx', 'tokens.txt'].map((path) => {
    const data = readFileSync(join(dir, path));
    return { path, url: pathToFileURL(join(dir, path)).href, sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
  });
  return { model_id, title: SYNTHETIC_ASR_MODEL_TITLE, recognizer: { type: 'tone_ctc', model: 'model.onnx', tokens: 'tokens.txt' }, artifacts };
}

/**
 * 16 kHz mono PCM16: `lead` s of silence, then per burst `burst` s of a 440 Hz tone at half scale
 * followed by `gap` s of silence. The gap defaults past sherpa's 2.4 s silence endpoint rule, so
 * in a stream every burst ends its own segment.
 */
export function toneBursts(count: number, opts: { lead?: number; burst?: number; gap?: number } = {}): Int16Array {
  const rate = 16000;
  const { lead = 0.5, burst = 0.4, gap = 3 } = opts;
  const total = Math.round((lead + count * (burst + gap)) * rate);
  const out = new Int16Array(total);
  for (let b = 0; b < count; b++) {
    const start = Math.round((lead + b * (burst + gap)) * rate);
    const len = Math.round(burst * rate);
    for (let i = 0; i < len; i++) out[start + i] = Math.round(16383 * Math.sin((2 * Math.PI * 440 * i) / rate));
  }
  return out;
}
