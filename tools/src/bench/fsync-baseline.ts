import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A bare append + fsync loop of one ledger-sized line: the floor any durable append pays. */
export function bareAppendFsyncSamples(n: number, lineBytes = 400): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'cccc-fsync-'));
  const fd = openSync(join(dir, 'bare.jsonl'), 'a');
  const line = Buffer.from('x'.repeat(lineBytes - 1) + '\n');
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      writeSync(fd, line);
      fsyncSync(fd);
      out.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
