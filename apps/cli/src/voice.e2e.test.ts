import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

describe('cccc voice (real daemon)', () => {
  it('enables, appends transcript, lists / selects / saves documents, appends input, reports status, disables', async () => {
    const { group_id } = await cli.json(['group', 'create', '--title', 'voice']);
    await cli.json(['use', group_id]);
    const noForeman = await cli.cccc(['voice', 'enable']);
    expect(noForeman.code).toBe(1);
    expect(noForeman.stderr).toMatch(/^error: voice_secretary_foreman_missing: /);

    const ws = join(cli.home(), 'ws');
    mkdirSync(join(ws, 'docs/voice-secretary'), { recursive: true });
    await cli.json(['attach', ws, '--group', group_id]);
    await cli.json(['actor', 'add', 'lead', '--runtime', 'custom', '--command', 'true']);
    expect((await cli.cccc(['voice', 'enable', '--dir', 'docs/voice-secretary'])).stdout).toBe('voice_secretary enabled\n');
    const status = await cli.cccc(['voice', 'status']);
    expect(status.stdout).toContain('voice_secretary enabled (idle)');
    expect(status.stdout).toContain('actor voice-secretary: stopped');

    const seg = await cli.cccc(['voice', 'transcript', 'append', 'We', 'ship', 'Friday.', '--session', 'm1', '--segment', 's1', '--document', 'docs/voice-secretary/m.md', '--flush']);
    expect(seg.stdout).toBe('segment s1 → docs/voice-secretary/m.md\ninput #1 notified\n');
    const again = await cli.cccc(['voice', 'transcript', 'append', 'We', 'ship', 'Friday.', '--session', 'm1', '--segment', 's1']);
    expect(again.stdout).toContain('no new input');
    const bad = await cli.cccc(['voice', 'transcript', 'append', 'x', '--session', '../up']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: invalid_path: /);

    writeFileSync(join(ws, 'docs/voice-secretary/other.md'), '# Other\n');
    const list = await cli.cccc(['voice', 'documents', 'list']);
    expect(list.stdout).toMatch(/^\* docs\/voice-secretary\/m\.md {2}active {2}rev 1/m);
    expect(list.stdout).toMatch(/^ {2}docs\/voice-secretary\/other\.md {2}active/m); // discovered by reconciliation
    expect((await cli.cccc(['voice', 'documents', 'select', 'docs/voice-secretary/other.md'])).stdout).toBe('active docs/voice-secretary/other.md\n');
    expect(readFileSync(join(ws, 'docs/voice-secretary/other.md'), 'utf8')).toBe('# Other\n');
    expect((await cli.cccc(['voice', 'documents', 'save', 'docs/voice-secretary/m.md', '--content', '# M\nFriday.\n'])).stdout).toBe('saved docs/voice-secretary/m.md rev 2\n');
    expect(readFileSync(join(ws, 'docs/voice-secretary/m.md'), 'utf8')).toBe('# M\nFriday.\n');

    const ask = await cli.cccc(['voice', 'input', 'What', 'did', 'we', 'decide?', '--request', 'vreq_cli', '--append-id', 'a1']);
    expect(ask.stdout).toBe('vreq_cli appended, notified\n');
    expect((await cli.cccc(['voice', 'input', 'What', 'did', 'we', 'decide?', '--request', 'vreq_cli', '--append-id', 'a1'])).stdout).toBe('vreq_cli already appended\n');
    const st = await cli.json(['voice', 'status']);
    expect(st).toMatchObject({ active_document_path: 'docs/voice-secretary/m.md', new_input_available: true });

    // Local ASR models (issue 27): an overlay model of test bytes, installed and verified.
    const src = join(cli.home(), 'model-src');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'model.onnx'), 'bytes');
    writeFileSync(join(src, 'tokens.txt'), 'tokens');
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    mkdirSync(join(cli.home(), 'config'), { recursive: true });
    writeFileSync(
      join(cli.home(), 'config', 'voice-models.json'),
      JSON.stringify({
        models: [
          {
            model_id: 'cli-test',
            recognizer: { type: 'zipformer2_ctc', model: 'model.onnx', tokens: 'tokens.txt' },
            artifacts: [
              { path: 'model.onnx', url: pathToFileURL(join(src, 'model.onnx')).href, sha256: sha('bytes'), size: 5 },
              { path: 'tokens.txt', url: pathToFileURL(join(src, 'tokens.txt')).href, sha256: sha('tokens'), size: 6 },
            ],
          },
        ],
      }),
    );
    expect((await cli.cccc(['voice', 'models', 'list'])).stdout).toBe('cli-test  not_installed\n1 model; service ASR not ready: voice_model_not_installed\n');
    expect((await cli.cccc(['voice', 'models', 'install', 'cli-test'])).stdout).toBe(`cli-test ready in ${join(cli.home(), 'cache', 'voice-models', 'cli-test', 'active')}\n`);
    const unknown = await cli.cccc(['voice', 'models', 'install', 'nope']);
    expect(unknown.stderr).toMatch(/^error: voice_model_not_found: /);

    expect((await cli.cccc(['voice', 'disable'])).stdout).toBe('voice_secretary disabled\n');
    expect((await cli.cccc(['voice', 'status'])).stdout).toContain('actor voice-secretary: none');
  });
});
