import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The bench's baseline servers (bench-child.ts), run from the build as the bench runs them.
const ENTRY = fileURLToPath(new URL('../dist/bench-child.js', import.meta.url));

describe('bench-child durable-echo-server', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('echoes each line only after appending it to its file, lines from several clients included', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cccc-durable-echo-'));
    const sock = join(dir, 's.sock');
    const file = join(dir, 'appended.jsonl');
    const child = spawn(process.execPath, [ENTRY, 'durable-echo-server', sock, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    await once(child.stdout!, 'data');
    try {
      const echoed = await Promise.all(
        [0, 1, 2].map(async (c) => {
          const socket = createConnection(sock);
          await once(socket, 'connect');
          socket.setEncoding('utf8');
          let got = '';
          const lines = [`{"c":${c},"i":0}\n`, `{"c":${c},"i":1}\n`];
          socket.write(lines.join(''));
          for await (const chunk of socket) {
            got += chunk as string;
            // Every echoed line is already in the file when it comes back.
            for (const line of got.split('\n').filter(Boolean)) expect(readFileSync(file, 'utf8')).toContain(line);
            if (got.split('\n').length > lines.length) break;
          }
          socket.destroy();
          return got;
        }),
      );
      expect(echoed).toEqual([0, 1, 2].map((c) => `{"c":${c},"i":0}\n{"c":${c},"i":1}\n`));
      expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).sort()).toHaveLength(6);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
