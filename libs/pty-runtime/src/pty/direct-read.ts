import tty from 'node:tty';

/** Size of the reusable read buffer. A PTY read returns at most ~4 KiB; the rest is headroom. */
const READ_BUFFER_BYTES = 64 * 1024;

type ReadStreamCtor = typeof tty.ReadStream;

/**
 * Runs `spawn` (a synchronous node-pty spawn) so that the PTY master's read stream delivers
 * output into one reusable buffer through net.Socket's public `onread` option instead of the
 * Readable machinery.
 *
 * Why: node-pty reads the master fd through a `tty.ReadStream` in flowing mode. Every ~4 KiB
 * read then costs a fresh 64 KiB allocation shrunk to size, a Readable push and two event
 * emitter hops, and the allocation churn keeps the GC busy; measured in-process that was ~4x the
 * CPU per MB of the `onread` path, and the PTY's small kernel buffer makes that per-read latency
 * the throughput limit. `onread` keeps everything else of node-pty intact: the same single
 * libuv handle owns the fd, EIO at child exit still destroys the stream, and node-pty's exit
 * logic (which waits for that close) is unchanged.
 *
 * node-pty has no option for this, so `tty.ReadStream` is swapped for the duration of the
 * synchronous spawn only (nothing else can run meanwhile) to add the `onread` option to the
 * stream it constructs. If a node-pty version constructs its stream differently, the swap is
 * simply not used and `direct` is false: callers then fall back to node-pty's `onData`.
 *
 * `onChunk` receives a view of the reused buffer: valid only during the call.
 */
export function spawnWithDirectReads<T>(spawn: () => T, onChunk: (chunk: Buffer) => void): { pty: T; direct: boolean } {
  const original: ReadStreamCtor = tty.ReadStream;
  let constructed = 0;
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  const onread = {
    buffer,
    callback: (nread: number, buf: Buffer): void => {
      onChunk(buf.subarray(0, nread));
    },
  };
  function ReadStreamWithUserBuffer(fd: number, options?: object): tty.ReadStream {
    // Only the first stream (the master, the only one a spawn builds) gets the buffer.
    if (constructed++ > 0) return new original(fd, options as ConstructorParameters<ReadStreamCtor>[1]);
    return new original(fd, { ...options, onread } as ConstructorParameters<ReadStreamCtor>[1]);
  }
  ReadStreamWithUserBuffer.prototype = original.prototype;
  (tty as { ReadStream: unknown }).ReadStream = ReadStreamWithUserBuffer;
  let pty: T;
  try {
    pty = spawn();
  } finally {
    (tty as { ReadStream: unknown }).ReadStream = original;
  }
  return { pty, direct: constructed > 0 };
}
