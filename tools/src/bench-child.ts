// Baseline processes for benchmarks, run in their own process like the daemon is.
import { createServer } from 'node:net';

const [mode, path] = process.argv.slice(2);

if (mode === 'echo-server' && path) {
  // A bare NDJSON echo server: every line is written back as it came.
  const server = createServer((socket) => {
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (let nl = pending.indexOf(0x0a); nl !== -1; nl = pending.indexOf(0x0a)) {
        socket.write(pending.subarray(0, nl + 1));
        pending = pending.subarray(nl + 1);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(path, () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  process.stderr.write('usage: bench-child echo-server <socket path>\n');
  process.exit(2);
}
