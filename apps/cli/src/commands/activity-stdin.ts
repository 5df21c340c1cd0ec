import { fstatSync, readSync } from 'node:fs';
import { pipeBindings, type PipeBindings } from '@cccc/ipc-protocol/call';

// Shared by every `cccc hook` entry: one payload from stdin, bounded in size and time.

export const MAX_HOOK_PAYLOAD = 1024 * 1024;

/**
 * stdin read without `process.stdin`: building that stream for a pipe (how an agent hands a hook
 * its payload) loads node:net and node:stream, ~4 ms of a hook process the agent waits on at every
 * tool call (issue 35). A pipe is read through libuv's pipe handle, as that stream would read it
 * (ipc-protocol's pipe-bindings.ts; never a blocking read, which a silent pipe would hold past
 * process exit), a file with plain reads; anything else, or where the handle is not verified,
 * through `process.stdin` as before.
 */
export const STDIN_DESCRIPTOR = { descriptor: 0 } as const;

/** Where a hook reads its payload: node's stdin stream, or `STDIN_DESCRIPTOR`. */
export type HookInput = NodeJS.ReadStream | typeof STDIN_DESCRIPTOR;

/** By shape, not identity: the activity recorder is a bundle of its own, with its own copy of this module. */
const isDescriptor = (input: HookInput): input is typeof STDIN_DESCRIPTOR => 'descriptor' in input && input.descriptor === 0;

/**
 * Read at most 1 MiB from stdin; a terminal yields '', a silent pipe what came within
 * `timeoutMs`, too much or a failed read null.
 */
export function readStdinCapped(stdin: HookInput, limit = MAX_HOOK_PAYLOAD, timeoutMs = 30_000): Promise<string | null> {
  if (!isDescriptor(stdin)) return readStreamCapped(stdin, limit, timeoutMs);
  let kind: 'pipe' | 'file' | 'terminal' | 'other';
  try {
    const stat = fstatSync(STDIN_DESCRIPTOR.descriptor);
    kind = stat.isFIFO() || stat.isSocket() ? 'pipe' : stat.isFile() ? 'file' : stat.isCharacterDevice() ? 'terminal' : 'other';
  } catch {
    return Promise.resolve(null);
  }
  // A terminal, or /dev/null: nobody is piping a payload in.
  if (kind === 'terminal') return Promise.resolve('');
  if (kind === 'file') return Promise.resolve(readFileCapped(STDIN_DESCRIPTOR.descriptor, limit));
  const pipe = kind === 'pipe' ? pipeBindings() : undefined;
  return pipe ? readPipeCapped(pipe, STDIN_DESCRIPTOR.descriptor, limit, timeoutMs) : readStreamCapped(process.stdin, limit, timeoutMs);
}

function readStreamCapped(stdin: NodeJS.ReadStream, limit: number, timeoutMs: number): Promise<string | null> {
  if (stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: string | null): void => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      resolve(value);
    };
    const timer = setTimeout(() => finish(Buffer.concat(chunks).toString('utf8')), timeoutMs);
    timer.unref();
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(null);
      chunks.push(chunk);
    });
    stdin.once('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    stdin.once('error', () => finish(null));
  });
}

/** A regular file never blocks a read. */
function readFileCapped(fd: number, limit: number): string | null {
  const buffer = Buffer.allocUnsafe(limit + 1);
  let size = 0;
  try {
    for (let bytes = 1; bytes > 0 && size <= limit; size += bytes) bytes = readSync(fd, buffer, size, limit + 1 - size, null);
  } catch {
    return null;
  }
  return size > limit ? null : buffer.toString('utf8', 0, size);
}

function readPipeCapped(pipe: PipeBindings, fd: number, limit: number, timeoutMs: number): Promise<string | null> {
  const handle = pipe.newHandle();
  if (handle.open(fd) < 0) {
    handle.close();
    return readStreamCapped(process.stdin, limit, timeoutMs);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      handle.onread = () => {}; // node checks it is a function: null would abort the process
      handle.readStop();
      handle.close();
      resolve(value);
    };
    const timer = setTimeout(() => finish(Buffer.concat(chunks).toString('utf8')), timeoutMs);
    handle.onread = (arrayBuffer) => {
      const { nread, offset } = pipe.lastRead();
      if (nread < 0) return finish(pipe.errorName(nread) === 'EOF' ? Buffer.concat(chunks).toString('utf8') : null);
      if (nread === 0 || arrayBuffer === undefined) return;
      size += nread;
      if (size > limit) return finish(null);
      chunks.push(Buffer.from(arrayBuffer, offset, nread));
    };
    if (handle.readStart() < 0) finish(null);
  });
}
