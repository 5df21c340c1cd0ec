import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A hook's payload read from stdin's descriptor (STDIN_DESCRIPTOR) and through node's stdin
// stream (the full CLI's hook command), in a real `node` process fed by a socket pair (how node
// spawns), a shell pipe, a file and /dev/null, as an agent runs `cccc hook …`.

const CHILD = `
const [how, limit, timeout] = process.argv.slice(2);
const input = how === 'descriptor' ? hookStdin.STDIN_DESCRIPTOR : process.stdin;
hookStdin.readStdinCapped(input, Number(limit), Number(timeout)).then((text) => {
  const net = process.moduleLoadList.includes('NativeModule net');
  require('node:fs').writeFileSync(process.env.RESULT_FILE, JSON.stringify({ text, net }));
  process.exit(0);
});
`;

let script: string;
let dir: string;
let runs = 0;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-hook-stdin-'));
  const entry = fileURLToPath(new URL('./activity-stdin.ts', import.meta.url));
  // @cccc/ipc-protocol/call from its build, as the hook bundle inlines it (npm test builds first).
  const out = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent' });
  script = join(dir, 'child.cjs');
  writeFileSync(script, `const hookStdin = (() => { const module = { exports: {} }; ${out.outputFiles[0]!.text}; return module.exports; })();\n${CHILD}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Feed = { pipe: (stdin: NodeJS.WritableStream) => void } | { fd: number } | { shell: string } | 'ignore';
type How = 'descriptor' | 'stream';

async function run(how: How, feed: Feed, options: { limit?: number; timeoutMs?: number } = {}): Promise<{ text: string | null; net: boolean }> {
  const result = join(dir, `result-${runs++}.json`);
  const args = [script, how, String(options.limit ?? 1024 * 1024), String(options.timeoutMs ?? 5_000)];
  const env = { ...process.env, RESULT_FILE: result };
  const child =
    typeof feed === 'object' && 'shell' in feed
      ? spawn('sh', ['-c', `printf '%s' "$PAYLOAD" | "$NODE" "$@"`, 'sh', ...args], { env: { ...env, PAYLOAD: feed.shell, NODE: process.execPath }, stdio: 'ignore' })
      : spawn(process.execPath, args, { env, stdio: [feed === 'ignore' ? 'ignore' : 'fd' in feed ? feed.fd : 'pipe', 'ignore', 'inherit'] });
  if (typeof feed === 'object' && 'pipe' in feed) feed.pipe(child.stdin!);
  await new Promise((resolve) => child.on('close', resolve));
  const { readFileSync } = await import('node:fs');
  return JSON.parse(readFileSync(result, 'utf8'));
}

const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: { command: 'echo héllo 👋' } });

describe.each(['descriptor', 'stream'] as const)('readStdinCapped through the %s', (how) => {
  it('reads a payload piped in slowly, in pieces, multi-byte characters split between them', async () => {
    const bytes = Buffer.from(payload);
    const pieces = (stdin: NodeJS.WritableStream): void => {
      let at = 0;
      const next = (): void => {
        if (at >= bytes.length) return void stdin.end();
        stdin.write(bytes.subarray(at, at + 7));
        at += 7;
        setTimeout(next, 2);
      };
      next();
    };
    expect((await run(how, { pipe: pieces })).text).toBe(payload);
    expect((await run(how, { shell: payload })).text).toBe(payload);
  });

  it('refuses a payload over the limit', async () => {
    expect((await run(how, { pipe: (stdin) => stdin.end('x'.repeat(5000)) }, { limit: 4096 })).text).toBeNull();
  });

  it('gives what came within the timeout when the pipe stays open and silent, and the process still exits', async () => {
    let keepOpen: NodeJS.WritableStream | undefined;
    const result = await run(how, { pipe: (stdin) => ((keepOpen = stdin), stdin.write('{"partial":')) }, { timeoutMs: 200 });
    expect(result.text).toBe('{"partial":');
    keepOpen?.end();
  });

  it('reads a file, and nothing from /dev/null', async () => {
    const file = join(dir, 'payload.json');
    writeFileSync(file, payload);
    expect((await run(how, { fd: openSync(file, 'r') })).text).toBe(payload);
    writeFileSync(file, 'y'.repeat(5000));
    expect((await run(how, { fd: openSync(file, 'r') }, { limit: 4096 })).text).toBeNull();
    expect((await run(how, 'ignore')).text).toBe('');
  });
});

// Issue 35: the stream alone is ~4 ms of a hook an agent waits on at every tool call.
it('through the descriptor, a piped payload builds no stdin stream, so node:net is never loaded', async () => {
  expect(await run('descriptor', { pipe: (stdin) => stdin.end(payload) })).toEqual({ text: payload, net: false });
  expect(await run('descriptor', { shell: payload })).toEqual({ text: payload, net: false });
});
