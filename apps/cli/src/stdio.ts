import { writeSync } from 'node:fs';

// What a `cccc` command prints, written straight to its file descriptor. The first use of
// `process.stdout` builds a stream for it: a pipe's (how an agent or a script reads a command)
// loads node:net and node:stream, ~4 ms of a ~30 ms command here, a file's or /dev/null's ~2 ms
// (issue 35; `npm run bench -- cli`). node writes to pipes, files and terminals synchronously
// anyway on Linux, so a blocking write says the same in the same order.
//
// A descriptor left non-blocking by whoever opened it can refuse a write (EAGAIN): the rest, and
// everything after it, then goes through node's stream, which waits for the reader before the
// process exits. A reader that has gone (`cccc inbox | head -1`) ends the output quietly, as it
// would end a Unix tool's, where node's stream would have thrown EPIPE.

type Fd = 1 | 2;

const viaStream = new Set<Fd>();
const readerGone = new Set<Fd>();

const streamOf = (fd: Fd): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

function write(fd: Fd, text: string): void {
  if (readerGone.has(fd)) return;
  if (viaStream.has(fd)) {
    streamOf(fd).write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE' || code === 'ECONNRESET') {
      // ECONNRESET: a socket pair's reader (how node gives a child its pipes) closed unread data.
      readerGone.add(fd);
      return;
    }
    if (code !== 'EAGAIN') throw error;
    viaStream.add(fd);
    streamOf(fd).write(bytes.subarray(done));
  }
}

/** Print `text` on standard output. */
export function writeStdout(text: string): void {
  write(1, text);
}

/** Print `text` on standard error. */
export function writeStderr(text: string): void {
  write(2, text);
}
