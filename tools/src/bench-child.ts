// Baseline processes for benchmarks, run in their own process like the daemon is.
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';

const [mode, path, file] = process.argv.slice(2);

/** Calls `onLine` with every complete NDJSON line a socket receives, newline included. */
function eachLine(socket: Socket, onLine: (line: Buffer) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (let nl = pending.indexOf(0x0a); nl !== -1; nl = pending.indexOf(0x0a)) {
      onLine(pending.subarray(0, nl + 1));
      pending = pending.subarray(nl + 1);
    }
  });
  socket.on('error', () => socket.destroy());
}

function serve(onConnection: (socket: Socket) => void, onStop: () => void = () => {}): void {
  const server = createServer(onConnection);
  server.listen(path, () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => (onStop(), process.exit(0))));
}

if (mode === 'echo-server' && path) {
  // A bare NDJSON echo server: every line is written back as it came.
  serve((socket) => eachLine(socket, (line) => socket.write(line)));
} else if (mode === 'durable-echo-server' && path && file) {
  // The least a server can do to acknowledge a durable append over IPC: every line is appended
  // to `file` with group commit (one write + one fdatasync per batch, off the event loop) and
  // written back only once it is durable. No parsing, validation, index or fan-out.
  const fd = openSync(file, 'a');
  let batch: Array<{ socket: Socket; line: Buffer }> = [];
  let syncing = false;
  const flush = (): void => {
    if (syncing || batch.length === 0) return;
    const done = batch;
    batch = [];
    syncing = true;
    writeSync(fd, Buffer.concat(done.map((d) => d.line)));
    fdatasync(fd, () => {
      syncing = false;
      for (const d of done) d.socket.write(d.line);
      flush();
    });
  };
  serve(
    (socket) =>
      eachLine(socket, (line) => {
        batch.push({ socket, line: Buffer.from(line) });
        queueMicrotask(flush);
      }),
    () => closeSync(fd),
  );
} else {
  process.stderr.write('usage: bench-child echo-server <socket path> | durable-echo-server <socket path> <file>\n');
  process.exit(2);
}
