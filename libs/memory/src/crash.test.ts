import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileLock } from '@cccc/durable-fs';
import { ensureDist } from './test-support/dist.js';
import { tempGroup } from './test-support/temp-group.js';

let root = '';
beforeAll(() => {
  root = ensureDist();
}, 120_000);

/** Run the write loop; SIGKILL it once it has acknowledged `killAfter` writes. */
function killMidLoop(groupDir: string, killAfter: number): Promise<{ acked: number; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'test-fixtures', 'write-loop.mjs'), groupDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let acked = 0;
    let buf = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.on('data', (d) => {
      buf += String(d);
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      acked = Number(parts.at(-1) ?? acked) || acked;
      if (acked >= killAfter) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code ? reject(new Error(`child exited ${code}: ${stderr}`)) : resolve({ acked, signal })));
  });
}

describe('kill -9 during a write', () => {
  it.each([3, 17, 40])('leaves the old or the new file, never a mix (killed after %i writes)', async (n) => {
    using g = tempGroup('crash');
    const { acked, signal } = await killMidLoop(g.groupDir, n);
    expect(signal).toBe('SIGKILL');
    const file = join(g.root, 'MEMORY.md');
    const text = readFileSync(file, 'utf8');
    const m = /^version (\d+)\n(x+)\nend (\d+)\n$/.exec(text);
    expect(m, 'MEMORY.md is one whole version').not.toBeNull();
    expect(m![1]).toBe(m![3]);
    expect(m![2]!.length).toBe(256 * 1024);
    // The last acknowledged version, or the one being written when the signal landed.
    expect([acked, acked + 1]).toContain(Number(m![1]));
    // The kernel dropped the dead writer's lock, and a leftover temp file is never indexed.
    FileLock.tryAcquire(`${file}.lock`)?.release();
    expect(readdirSync(g.root).filter((f) => f.endsWith('.md'))).toEqual(['MEMORY.md']);
    await g.memory.write({ target: 'memory', content: 'the phoenix rises after the kill' });
    expect((await g.memory.search({ query: 'phoenix' })).count).toBe(1);
  }, 60_000);
});
