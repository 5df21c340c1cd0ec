import tty from 'node:tty';
import { spawn as ptySpawn } from 'node-pty';
import { describe, expect, it } from 'vitest';
import { OutputRing } from '../ring/output-ring.js';
import { spawnWithDirectReads } from './direct-read.js';
import { spawnNodePty } from './node-pty-session.js';

const env = { ...(process.env as Record<string, string>), TERM: 'xterm-256color' };

/**
 * A child that prints `lines` numbered lines (so every byte of the stream is checkable), waits
 * `lingerMs`, then exits 7.
 */
const numberedLines = (lines: number, lingerMs = 0) => [
  process.execPath,
  '-e',
  `let i=0;const w=()=>{let ok=true;while(i<${lines}&&ok){ok=process.stdout.write(String(i).padStart(8,'0')+' line of the flood\\n');i++}if(i<${lines})process.stdout.once('drain',w);else process.stdout.write('',()=>setTimeout(()=>process.exit(7),${lingerMs}))};w()`,
];

describe('direct PTY reads (onread into a reused buffer)', () => {
  it('is what the installed node-pty uses, and node-pty itself then emits no data events', async () => {
    let viaCallback = 0;
    const { pty, direct } = spawnWithDirectReads(
      () => ptySpawn(process.execPath, ['-e', 'process.stdout.write("hello from the child")'], { cols: 80, rows: 24, cwd: process.cwd(), env, encoding: null }),
      (chunk) => (viaCallback += chunk.byteLength),
    );
    expect(direct).toBe(true);
    let viaNodePty = 0;
    pty.onData((d) => (viaNodePty += d.length));
    await new Promise<void>((resolve) => pty.onExit(() => resolve()));
    expect(viaCallback).toBeGreaterThan(0);
    expect(viaNodePty).toBe(0);
  });

  it('CCCC_PTY_STREAM_READS=1 falls back to node-pty data events, with the same bytes and exit', async () => {
    process.env.CCCC_PTY_STREAM_READS = '1';
    const original = tty.ReadStream;
    let swapped = false;
    try {
      // Spawning must not swap tty.ReadStream at all on the fallback path.
      Object.defineProperty(tty, 'ReadStream', {
        configurable: true,
        get: () => original,
        set: () => {
          swapped = true;
        },
      });
      // node-pty's own stream destroys its socket 200 ms after the child exits, unread output and
      // all (the reason direct reads are the default): on a loaded machine that cut the tail. The
      // child lingers so this checks the fallback's wiring, not node-pty's exit race.
      const pty = spawnNodePty({ argv: numberedLines(3000, 1_000), cwd: process.cwd(), env, cols: 120, rows: 40 });
      const ring = new OutputRing();
      pty.onData((d) => ring.append(d));
      const exit = await new Promise<{ exitCode: number | null }>((resolve) => pty.onExit(resolve));
      expect(exit.exitCode).toBe(7);
      expect(swapped).toBe(false);
      expect(ring.slice(0).toString('latin1').split('\r\n').filter(Boolean)).toHaveLength(3000);
    } finally {
      delete process.env.CCCC_PTY_STREAM_READS;
      Object.defineProperty(tty, 'ReadStream', { configurable: true, writable: true, enumerable: true, value: original });
    }
  }, 30_000);

  it('restores tty.ReadStream even when the spawn throws', () => {
    const original = tty.ReadStream;
    expect(() =>
      spawnWithDirectReads(
        () => {
          throw new Error('spawn failed');
        },
        () => {},
      ),
    ).toThrow('spawn failed');
    expect(tty.ReadStream).toBe(original);
  });

  it('delivers every byte in order across thousands of reads, then the exit (EIO) after the last byte', async () => {
    const lines = 40_000; // ~1 MB: hundreds of ~4 KiB reads through the one reused buffer
    const pty = spawnNodePty({ argv: numberedLines(lines), cwd: process.cwd(), env, cols: 120, rows: 40 });
    const ring = new OutputRing({ capBytes: 64 * 1024 * 1024 });
    let reads = 0;
    let dataAfterExit = false;
    let exited = false;
    pty.onData((d) => {
      if (exited) dataAfterExit = true;
      reads++;
      ring.append(d);
    });
    const exit = await new Promise<{ exitCode: number | null }>((resolve) =>
      pty.onExit((e) => {
        exited = true;
        resolve(e);
      }),
    );
    expect(exit.exitCode).toBe(7);
    expect(dataAfterExit).toBe(false);
    expect(reads).toBeGreaterThan(10);
    // The PTY turns \n into \r\n; every line must be there, whole and in order.
    const text = ring.slice(ring.startCursor).toString('latin1');
    const got = text.split('\r\n').filter((l) => l.length > 0);
    expect(got).toHaveLength(lines);
    const firstWrong = got.findIndex((line, i) => line !== `${String(i).padStart(8, '0')} line of the flood`);
    expect(firstWrong).toBe(-1);
  }, 60_000);
});
