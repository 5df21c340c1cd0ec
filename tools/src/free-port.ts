import { createServer } from 'node:net';

/**
 * A loopback port that was free a moment ago: listen on port 0, read the port the OS picked,
 * close. For starting a process that takes `--port` (the Web in the bench and the README
 * quick-start test); one helper so the bench sections and the e2e tests pick ports the same way.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
