import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { TempHomes } from '../test-support/homes.js';
import { gzipOnWorker, gzipSegmentFile } from './segment-gzip.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());

// Issue 20, point 6: a sealed segment's gzip runs on a low-priority worker thread, a 1 MiB piece
// at a time. The file it writes must read back as the same bytes with any gunzip.
describe('gzip of a sealed segment on a worker thread', () => {
  it('writes a gzip (several members past 1 MiB) that gunzips to the same bytes, mode 0644', async () => {
    const dir = homes.make();
    const source = join(dir, 'ledger.20261206T100000Z.000001.jsonl');
    const lines = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ v: 1, id: `e${i}`, text: `line ${i} ${i.toString(36).repeat(40)} ${'é'.repeat(i % 300)}` }));
    writeFileSync(source, lines.join('\n') + '\n');
    expect(statSync(source).size).toBeGreaterThan(2 * 1024 * 1024);
    const target = `${source}.gz.partial`;
    await gzipOnWorker(source, target);
    const packed = readFileSync(target);
    expect(gunzipSync(packed).equals(readFileSync(source))).toBe(true);
    // A member starts at every 1 MiB piece: more than one gzip header in the file.
    expect(packed.indexOf(Buffer.from([0x1f, 0x8b, 0x08]), 10)).toBeGreaterThan(0);
    expect(statSync(target).mode & 0o777).toBe(0o644);
    // The reference reads sealed segments with Python's gzip.open: it must see the whole stream.
    const python = execFileSync('python3', ['-c', 'import gzip, sys; sys.stdout.buffer.write(gzip.open(sys.argv[1], "rb").read())', target], { maxBuffer: 64 << 20 });
    expect(python.equals(readFileSync(source))).toBe(true);
  });

  it('an empty segment gives an empty file that gunzips to nothing', async () => {
    const dir = homes.make();
    const source = join(dir, 'empty.jsonl');
    writeFileSync(source, '');
    await gzipSegmentFile(source, `${source}.gz`);
    expect(gunzipSync(readFileSync(`${source}.gz`)).length).toBe(0);
  });

  it('a source that cannot be read rejects (the worker ran, so nothing is retried in-process)', async () => {
    const dir = homes.make();
    await expect(gzipSegmentFile(join(dir, 'absent.jsonl'), join(dir, 'absent.jsonl.gz'))).rejects.toThrow(/absent\.jsonl/);
    expect(existsSync(join(dir, 'absent.jsonl.gz'))).toBe(false);
  });
});
