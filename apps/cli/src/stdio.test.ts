import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// stdio.ts in a real `node` process with real pipes: what a reader gets, in which order, from a
// blocking descriptor, from one node made non-blocking, and when the reader goes away.

const SCENARIOS = `
const [scenario] = process.argv.slice(1);
const big = 'x'.repeat(1023) + '\\n';
if (scenario === 'order') {
  stdio.writeStdout('one\\n');
  process.stdout.write('two\\n');
  stdio.writeStdout('three\\n');
  stdio.writeStderr('oops\\n');
} else if (scenario === 'non-blocking') {
  void process.stdout; // node's pipe stream sets the descriptor non-blocking
  for (let i = 0; i < 2048; i++) stdio.writeStdout(i + ' ' + big);
  stdio.writeStdout('end\\n');
} else if (scenario === 'reader-gone') {
  for (let i = 0; i < 4096; i++) stdio.writeStdout(big);
  stdio.writeStderr('done\\n');
}
`;

let script: string;
beforeAll(async () => {
  const entry = fileURLToPath(new URL('./stdio.ts', import.meta.url));
  const out = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent' });
  script = `${out.outputFiles[0]!.text}\nconst stdio = module.exports;\n${SCENARIOS}`;
});

function run(scenario: string, reader: (stdout: NodeJS.ReadableStream) => void = () => {}) {
  const child = spawn(process.execPath, ['-e', script, scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  reader(child.stdout);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('writeStdout / writeStderr', () => {
  it('print in order with what goes through process.stdout', async () => {
    expect(await run('order')).toEqual({ code: 0, stdout: 'one\ntwo\nthree\n', stderr: 'oops\n' });
  });

  it('lose nothing to a non-blocking pipe whose reader is slow: the rest goes through node\'s stream', async () => {
    const { code, stdout } = await run('non-blocking', (out) => {
      out.pause();
      setTimeout(() => out.resume(), 200);
    });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines).toHaveLength(2050);
    expect(lines.slice(0, 2048).every((line, i) => line.startsWith(`${i} x`) && line.length === `${i} `.length + 1023)).toBe(true);
    expect(lines.slice(2048)).toEqual(['end', '']);
  });

  it('end quietly when the reader has gone (`cccc … | head -1`)', async () => {
    const result = await run('reader-gone', (out) => out.once('data', () => (out as unknown as { destroy(): void }).destroy()));
    expect(result).toMatchObject({ code: 0, stderr: 'done\n' });
  });
});
