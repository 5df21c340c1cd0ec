import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../test-support/dist.js';
import { installVoiceModel } from './install.js';
import { loadVoiceModelManifest } from './manifest.js';
import { modelPaths } from './model-paths.js';
import { voiceModelRecord } from './model-status.js';

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const s of servers.splice(0)) s.closeAllConnections(), s.close();
});
const tmp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Test model files (bytes, not a real model: install only moves and verifies bytes). */
function artifacts(src: string, n = 4096) {
  const files = ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt'];
  return files.map((name, i) => {
    const data = Buffer.alloc(n + i, i + 1);
    writeFileSync(join(src, name), data);
    return { path: name, url: pathToFileURL(join(src, name)).href, sha256: sha(data), size: data.length };
  });
}
const recognizer = { type: 'transducer', encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' };
function overlay(home: string, models: unknown[]) {
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'voice-models.json'), JSON.stringify({ models }));
}

describe('voice model install', () => {
  it('installs a verified model: files in active/, installed record, ready status, no staging left', async () => {
    const home = tmp('vm-home-');
    const arts = artifacts(tmp('vm-src-'));
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts }]);
    const rec = await installVoiceModel(home, 'test-en');
    const p = modelPaths(home, 'test-en');
    expect(rec).toMatchObject({ model_id: 'test-en', status: 'ready', install_dir: p.active, update_available: false });
    expect(rec.installed_manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const a of arts) expect(sha(readFileSync(join(p.active, a.path)))).toBe(a.sha256);
    expect(readdirSync(p.root).filter((n) => n.startsWith('.staging-') || n.startsWith('.previous-'))).toEqual([]);
    expect(existsSync(p.installState)).toBe(false);
  });

  it('a wrong checksum fails with voice_model_hash_mismatch and leaves the previous model active and unchanged', async () => {
    const home = tmp('vm-home-');
    const src = tmp('vm-src-');
    const arts = artifacts(src);
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts }]);
    const first = await installVoiceModel(home, 'test-en');
    // The manifest moves on to files whose bytes do not match their declared hash.
    const bad = arts.map((a, i) => (i === 2 ? { ...a, sha256: 'f'.repeat(64) } : a));
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: bad }]);
    await expect(installVoiceModel(home, 'test-en')).rejects.toMatchObject({ code: 'voice_model_hash_mismatch' });
    const p = modelPaths(home, 'test-en');
    const entry = (await loadVoiceModelManifest(home))[0]!;
    const rec = await voiceModelRecord(home, entry);
    expect(rec).toMatchObject({ status: 'ready', installed_at: first.installed_at, update_available: true, last_update_error: { code: 'voice_model_hash_mismatch' } });
    for (const a of arts) expect(sha(readFileSync(join(p.active, a.path)))).toBe(a.sha256);
    expect(readdirSync(p.root).filter((n) => n.startsWith('.staging-'))).toEqual([]);
  });

  it('a short (partial) artifact is voice_model_size_mismatch; nothing becomes active', async () => {
    const home = tmp('vm-home-');
    const arts = artifacts(tmp('vm-src-'));
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts.map((a, i) => (i === 0 ? { ...a, size: a.size + 10 } : a)) }]);
    await expect(installVoiceModel(home, 'test-en')).rejects.toMatchObject({ code: 'voice_model_size_mismatch' });
    const entry = (await loadVoiceModelManifest(home))[0]!;
    expect(await voiceModelRecord(home, entry)).toMatchObject({ status: 'failed', error: { code: 'voice_model_size_mismatch' } });
    expect(existsSync(modelPaths(home, 'test-en').active)).toBe(false);
  });

  it('an over-long http body is cut off at the declared size', async () => {
    const home = tmp('vm-home-');
    const arts = artifacts(tmp('vm-src-'));
    const server = createServer((_req, res) => {
      res.writeHead(200); // no content-length: the bound must hold while streaming
      res.write(Buffer.alloc(1024 * 64));
      res.end(Buffer.alloc(1024 * 64));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/encoder.onnx`;
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts.map((a, i) => (i === 0 ? { ...a, url } : a)) }]);
    await expect(installVoiceModel(home, 'test-en')).rejects.toMatchObject({ code: 'voice_model_size_mismatch' });
    expect(existsSync(modelPaths(home, 'test-en').active)).toBe(false);
  });

  it('an http download past its time bound fails with voice_model_download_failed', async () => {
    const home = tmp('vm-home-');
    const arts = artifacts(tmp('vm-src-'));
    const server = createServer((_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(100)); // then nothing more
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts.map((a, i) => (i === 1 ? { ...a, url } : a)) }]);
    await expect(installVoiceModel(home, 'test-en', { artifactTimeoutMs: 300 })).rejects.toMatchObject({ code: 'voice_model_download_failed' });
  });

  it('unknown model is voice_model_not_found; a malformed overlay is voice_model_manifest_invalid', async () => {
    const home = tmp('vm-home-');
    await expect(installVoiceModel(home, 'nope')).rejects.toMatchObject({ code: 'voice_model_not_found' });
    overlay(home, [{ model_id: 'x', recognizer, artifacts: [{ path: '../evil', url: 'file:///etc/passwd', sha256: 'a'.repeat(64), size: 1 }] }]);
    await expect(installVoiceModel(home, 'x')).rejects.toMatchObject({ code: 'voice_model_manifest_invalid' });
  });

  it('an install killed between its two renames: the complete previous copy is put back by the next install', async () => {
    const home = tmp('vm-home-');
    const arts = artifacts(tmp('vm-src-'));
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts }]);
    await installVoiceModel(home, 'test-en');
    const p = modelPaths(home, 'test-en');
    // The state such a kill leaves: the active copy moved aside, nothing switched in.
    renameSync(p.active, join(p.root, '.previous-1-1'));
    const entry = (await loadVoiceModelManifest(home))[0]!;
    expect((await voiceModelRecord(home, entry)).status).toBe('not_installed');
    // The next install restores it before downloading; this one then fails its checksum, and the restored copy stays active.
    overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts.map((a, i) => (i === 0 ? { ...a, sha256: 'e'.repeat(64) } : a)) }]);
    await expect(installVoiceModel(home, 'test-en')).rejects.toMatchObject({ code: 'voice_model_hash_mismatch' });
    expect((await voiceModelRecord(home, entry)).status).toBe('ready');
    for (const a of arts) expect(sha(readFileSync(join(p.active, a.path)))).toBe(a.sha256);
  });

  describe('killed mid-download (a real child process, kill -9)', () => {
    let root = '';
    beforeAll(() => {
      root = ensureDist();
    }, 120_000);

    it('reports the interrupted install as failed, never activates it, and a later install succeeds', async () => {
      const home = tmp('vm-home-');
      const src = tmp('vm-src-');
      const arts = artifacts(src, 256 * 1024);
      const big = readFileSync(join(src, 'encoder.onnx'));
      // Trickles the encoder forever slower than its size so the child is surely mid-download when killed.
      const server = createServer((_req, res) => {
        res.writeHead(200, { 'content-length': String(big.length) });
        let off = 0;
        const t = setInterval(() => {
          if (off >= big.length - 1024) return;
          res.write(big.subarray(off, off + 1024));
          off += 1024;
        }, 20);
        res.on('close', () => clearInterval(t));
      });
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const slowUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/encoder.onnx`;
      overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts.map((a, i) => (i === 0 ? { ...a, url: slowUrl } : a)) }]);

      const child = spawn(process.execPath, [join(root, 'test-fixtures', 'model-install.mjs'), home, 'test-en'], { stdio: 'ignore' });
      const p = modelPaths(home, 'test-en');
      const entry = (await loadVoiceModelManifest(home))[0]!;
      // Wait until the child is visibly downloading (staging file has bytes, status says so).
      const deadline = Date.now() + 30_000;
      let seen = false;
      while (Date.now() < deadline && !seen) {
        await new Promise((r) => setTimeout(r, 50));
        const staging = existsSync(p.root) ? readdirSync(p.root).find((n) => n.startsWith('.staging-')) : undefined;
        const f = staging ? join(p.root, staging, 'encoder.onnx') : '';
        seen = !!f && existsSync(f) && statSync(f).size > 0;
      }
      expect(seen).toBe(true);
      expect((await voiceModelRecord(home, entry)).status).toBe('downloading');
      await expect(installVoiceModel(home, 'test-en')).rejects.toMatchObject({ code: 'voice_model_install_busy' });
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      const after = await voiceModelRecord(home, entry);
      expect(after).toMatchObject({ status: 'failed', error: { code: 'voice_model_install_interrupted' } });
      expect(existsSync(p.active)).toBe(false);

      // The source is repaired; the next install clears the dead staging dir and succeeds.
      overlay(home, [{ model_id: 'test-en', recognizer, artifacts: arts }]);
      expect(await installVoiceModel(home, 'test-en')).toMatchObject({ status: 'ready' });
      expect(readdirSync(p.root).filter((n) => n.startsWith('.staging-'))).toEqual([]);
    }, 60_000);
  });
});
