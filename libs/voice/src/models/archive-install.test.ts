import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio, encodeWav } from '../asr/pcm.js';
import { VoiceAsrService } from '../asr/voice-asr-service.js';
import { ensureDist } from '../test-support/dist.js';
import { makeSyntheticAsrModel, toneBursts } from '../test-support/synthetic-asr-model.js';
import { installVoiceModel } from './install.js';
import { loadVoiceModelManifest } from './manifest.js';
import { modelPaths } from './model-paths.js';

// tar.gz / tar.bz2 model artifacts: real archives made with GNU tar (gzip from zlib, bzip2 from
// Debian's bzip2), installed through the real file:// install path.

const dirs: string[] = [];
const services: VoiceAsrService[] = [];
afterEach(() => {
  for (const s of services.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A tar of `paths` (relative to cwd, or absolute / `..` ones kept as written), compressed. */
async function archive(cwd: string, paths: string[], format: 'tar.gz' | 'tar.bz2', out: string): Promise<Buffer> {
  const tarFile = `${out}.tar`;
  // GNU tar -P writes absolute and `..` member names exactly as given (for the refusal tests).
  execFileSync('tar', ['-c', '-P', '-f', tarFile, '-C', cwd, ...paths]);
  if (format === 'tar.gz') writeFileSync(out, gzipSync(readFileSync(tarFile)));
  else writeFileSync(out, execFileSync('bzip2', ['-c', tarFile], { maxBuffer: 64 * 1024 * 1024 }));
  rmSync(tarFile);
  return readFileSync(out);
}
function artifactOf(file: string, extract?: 'tar.gz' | 'tar.bz2') {
  const data = readFileSync(file);
  return { path: file.split('/').pop()!, url: pathToFileURL(file).href, sha256: sha(data), size: data.length, ...(extract ? { extract } : {}) };
}
function overlay(home: string, models: unknown[]) {
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'voice-models.json'), JSON.stringify({ models }));
}
const recognizer = { type: 'tone_ctc', model: 'synth/model.onnx', tokens: 'synth/tokens.txt' };

describe('archive model artifacts', () => {
  beforeAll(() => {
    ensureDist();
  }, 120_000);

  it('a tar.bz2 of the synthetic model installs (archive removed, files in place) and the real recognizer runs it', async () => {
    const home = tmp('va-home-');
    const src = tmp('va-src-');
    makeSyntheticAsrModel(join(src, 'synth'));
    const art = artifactOf((await archive(src, ['synth'], 'tar.bz2', join(src, 'synth.tar.bz2')), join(src, 'synth.tar.bz2')), 'tar.bz2');
    overlay(home, [{ model_id: 'synth-bz2', title: 'synthetic test model, energy detector, not speech recognition', recognizer, artifacts: [art] }]);
    const rec = await installVoiceModel(home, 'synth-bz2');
    expect(rec).toMatchObject({ status: 'ready' });
    const active = modelPaths(home, 'synth-bz2').active;
    expect(readdirSync(active).sort()).toEqual(['installed.json', 'synth']);
    expect(readFileSync(join(active, 'synth/tokens.txt'), 'utf8')).toBe('<blk> 0\nx 1\n');
    const svc = new VoiceAsrService(home, { requestTimeoutMs: 30_000 });
    services.push(svc);
    const wave = decodeAudio(encodeWav(toneBursts(2, { gap: 0.6 }), 16000), 'audio/wav');
    expect((await svc.transcribe({ recognition_backend: 'assistant_service_local_asr', service_model_id: 'synth-bz2' }, wave)).text).toBe('xx');
  }, 60_000);

  it('a tar.gz with nested directories installs', async () => {
    const home = tmp('va-home-');
    const src = tmp('va-src-');
    mkdirSync(join(src, 'synth/extra'), { recursive: true });
    writeFileSync(join(src, 'synth/model.onnx'), 'bytes');
    writeFileSync(join(src, 'synth/tokens.txt'), 'a 0');
    writeFileSync(join(src, 'synth/extra/README'), 'r');
    const art = artifactOf((await archive(src, ['synth'], 'tar.gz', join(src, 'm.tar.gz')), join(src, 'm.tar.gz')), 'tar.gz');
    overlay(home, [{ model_id: 'gz', recognizer, artifacts: [art] }]);
    expect(await installVoiceModel(home, 'gz')).toMatchObject({ status: 'ready' });
    expect(readFileSync(join(modelPaths(home, 'gz').active, 'synth/extra/README'), 'utf8')).toBe('r');
  });

  async function refused(build: (src: string) => Promise<string>, code: string) {
    const home = tmp('va-home-');
    const src = tmp('va-src-');
    // A good model is active first: a refused update must leave it exactly as it was.
    mkdirSync(join(src, 'good/synth'), { recursive: true });
    writeFileSync(join(src, 'good/synth/model.onnx'), 'good');
    writeFileSync(join(src, 'good/synth/tokens.txt'), 'good');
    const good = artifactOf((await archive(join(src, 'good'), ['synth'], 'tar.gz', join(src, 'good.tar.gz')), join(src, 'good.tar.gz')), 'tar.gz');
    overlay(home, [{ model_id: 'm', recognizer, artifacts: [good] }]);
    await installVoiceModel(home, 'm');
    const bad = artifactOf(await build(src), 'tar.gz');
    overlay(home, [{ model_id: 'm', recognizer, artifacts: [bad] }]);
    const err = await installVoiceModel(home, 'm').catch((e: unknown) => e);
    expect(err).toMatchObject({ code });
    const p = modelPaths(home, 'm');
    expect(readFileSync(join(p.active, 'synth/model.onnx'), 'utf8')).toBe('good');
    expect(readdirSync(p.root).filter((n) => n.startsWith('.staging-'))).toEqual([]);
    return { err: err as { details?: { entries?: string[] } }, src, home };
  }

  it('refuses a `..` entry (zip-slip): nothing written outside, previous model kept', async () => {
    const { err, src } = await refused(async (s) => {
      mkdirSync(join(s, 'in/synth'), { recursive: true });
      writeFileSync(join(s, 'in/synth/model.onnx'), 'x');
      writeFileSync(join(s, 'escape.txt'), 'escaped');
      await archive(join(s, 'in'), ['synth', '../escape.txt'], 'tar.gz', join(s, 'slip.tar.gz'));
      rmSync(join(s, 'escape.txt'));
      return join(s, 'slip.tar.gz');
    }, 'voice_model_archive_unsafe');
    expect(err.details?.entries?.[0]).toMatch(/^\.\.\/escape\.txt: path leaves/);
    expect(existsSync(join(src, 'escape.txt'))).toBe(false);
  });

  it('refuses an absolute-path entry', async () => {
    const outside = join(tmp('va-abs-'), 'abs.txt');
    writeFileSync(outside, 'abs');
    const { err } = await refused(async (s) => {
      const tarball = await archive(s, [outside], 'tar.gz', join(s, 'abs.tar.gz'));
      rmSync(outside);
      return tarball && join(s, 'abs.tar.gz');
    }, 'voice_model_archive_unsafe');
    expect(err.details?.entries?.[0]).toMatch(/absolute/);
    expect(existsSync(outside)).toBe(false);
  });

  it('refuses a symlink entry and a hard-link entry', async () => {
    const sym = await refused(async (s) => {
      mkdirSync(join(s, 'l/synth'), { recursive: true });
      writeFileSync(join(s, 'l/synth/tokens.txt'), 't');
      symlinkSync('/etc/passwd', join(s, 'l/synth/model.onnx'));
      return (await archive(join(s, 'l'), ['synth'], 'tar.gz', join(s, 'sym.tar.gz'))) && join(s, 'sym.tar.gz');
    }, 'voice_model_archive_unsafe');
    expect(sym.err.details?.entries?.join()).toMatch(/SymbolicLink/);
    const hard = await refused(async (s) => {
      mkdirSync(join(s, 'h/synth'), { recursive: true });
      writeFileSync(join(s, 'h/synth/model.onnx'), 'm');
      linkSync(join(s, 'h/synth/model.onnx'), join(s, 'h/synth/tokens.txt'));
      return (await archive(join(s, 'h'), ['synth'], 'tar.gz', join(s, 'hard.tar.gz'))) && join(s, 'hard.tar.gz');
    }, 'voice_model_archive_unsafe');
    expect(hard.err.details?.entries?.join()).toMatch(/Link/);
  });

  it('refuses an entry that would replace another artifact', async () => {
    await refused(async (s) => {
      mkdirSync(join(s, 'r'), { recursive: true });
      writeFileSync(join(s, 'r/installed.json'), '{}');
      return (await archive(join(s, 'r'), ['installed.json'], 'tar.gz', join(s, 'rep.tar.gz'))) && join(s, 'rep.tar.gz');
    }, 'voice_model_archive_unsafe');
  });

  it('a corrupt archive (checksum right, data not a tar.gz) is voice_model_archive_invalid', async () => {
    await refused(async (s) => {
      writeFileSync(join(s, 'junk.tar.gz'), Buffer.alloc(4096, 7));
      return join(s, 'junk.tar.gz');
    }, 'voice_model_archive_invalid');
  });

  it('an archive without a file the recognizer names is voice_model_archive_invalid', async () => {
    await refused(async (s) => {
      mkdirSync(join(s, 'p/synth'), { recursive: true });
      writeFileSync(join(s, 'p/synth/model.onnx'), 'm');
      return (await archive(join(s, 'p'), ['synth'], 'tar.gz', join(s, 'partial.tar.gz'))) && join(s, 'partial.tar.gz');
    }, 'voice_model_archive_invalid');
  });

  it('the manifest refuses recognizer paths that leave the model directory, and nested paths without an archive', async () => {
    const home = tmp('va-home-');
    const art = { path: 'm.tar.gz', url: 'file:///nowhere/m.tar.gz', sha256: 'a'.repeat(64), size: 1, extract: 'tar.gz' };
    overlay(home, [{ model_id: 'x', recognizer: { type: 'tone_ctc', model: '../model.onnx', tokens: 'synth/tokens.txt' }, artifacts: [art] }]);
    await expect(loadVoiceModelManifest(home)).rejects.toMatchObject({ code: 'voice_model_manifest_invalid' });
    overlay(home, [{ model_id: 'x', recognizer, artifacts: [{ ...art, extract: undefined }] }]);
    await expect(loadVoiceModelManifest(home)).rejects.toMatchObject({ code: 'voice_model_manifest_invalid' });
  });
});
