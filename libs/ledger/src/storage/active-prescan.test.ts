import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TempHomes } from '../test-support/homes.js';
import { prescanActive, prescanOnLoop, prescanOnWorker } from './active-prescan.js';
import { prescanFile } from './active-prescan-scan.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());

const event = (n: number) => JSON.stringify({ v: 1, id: `e${n}`, ts: '2026-12-06T10:00:00.000000Z', kind: 'chat.message', group_id: 'g_1', scope_key: '', by: 'user', data: { text: `hello ${n} ✓` } });

function file(contents: string): string {
  const path = join(homes.make(), 'ledger.jsonl');
  writeFileSync(path, contents);
  return path;
}

// Issue 20, point 6: a rotation's strict pre-read of the active file runs on a worker thread, so
// its decode does not hold the daemon's thread. It must read exactly as the in-thread pass does.
describe('the rotation pre-scan on a worker thread', () => {
  const cases: Array<[string, () => string]> = [
    ['events, a blank line and a torn tail', () => file(`${event(1)}\n\n${event(2)}\n{"v":1,"id":"tor`)],
    ['a record that is not an event', () => file(`${event(1)}\n{"broken": true}\n${event(2)}\n`)],
    ['invalid JSON', () => file(`${event(1)}\nnot json\n`)],
    ['an empty file', () => file('')],
    ['a missing file', () => join(homes.make(), 'absent.jsonl')],
    [
      'lines across the worker’s 1 MiB read chunks',
      () => {
        const path = file('');
        for (let i = 0; i < 3000; i++) appendFileSync(path, `${event(i).replace('hello', 'x'.repeat(900))}\n`);
        return path;
      },
    ],
    [
      'a line longer than the worker’s read buffer, between and before short ones',
      () => file(`${event(1)}\n${event(2).replace('hello', 'y'.repeat(5 << 20))}\n${event(3)}\n${event(4).replace('hello', 'z'.repeat(3 << 20))}\n${event(5)}\n{"v":1,"id":"tor`),
    ],
  ];

  it.each(cases)('%s: the same answer as the in-thread pass', async (_name, make) => {
    const path = make();
    const onLoop = await prescanOnLoop(path);
    expect(await prescanOnWorker(path)).toEqual(onLoop);
    expect(await prescanActive(path)).toEqual(onLoop);
  });

  it('counts complete lines and ends before the torn tail', async () => {
    const head = `${event(1)}\n\n${event(2)}\n`;
    const path = file(`${head}{"v":1`);
    expect(await prescanOnWorker(path)).toMatchObject({ end: Buffer.byteLength(head), lines: 3 });
  });
});

// Issue 20, point 3: the maintenance thread's resident memory after a rotation. A buffer per 1 MiB
// read (and a copy per carried line) left the whole segment as external memory until the thread's
// next collection, ~10 MiB for a 7 MB segment; the scan reuses one buffer instead.
describe('the pre-scan’s buffers', () => {
  it('reads a 6 MB file through one reused buffer of at most 2 MiB', () => {
    const path = file('');
    const line = `${event(0).replace('hello', 'x'.repeat(2000))}\n`;
    appendFileSync(path, line.repeat(Math.ceil((6 << 20) / line.length)));
    const allocUnsafe = vi.spyOn(Buffer, 'allocUnsafe');
    try {
      expect(prescanFile(path)).toMatchObject({ lines: Math.ceil((6 << 20) / line.length) });
      const requested = allocUnsafe.mock.calls.reduce((sum, [size]) => sum + size, 0);
      expect(requested).toBeLessThanOrEqual(2 << 20);
    } finally {
      allocUnsafe.mockRestore();
    }
  });
});
