import { ErrorCodes, IpcError, type OpRouter } from '@cccc/ipc-protocol';
import { daemonCapabilities } from '../capabilities.js';
import { COMPATIBILITY, DAEMON_VERSION, IMPLEMENTATION } from '../version.js';

export interface CoreOpsDeps {
  /** Begin an orderly shutdown after the current response is written. */
  readonly requestShutdown: (reason: string) => void;
  /** ping's `executable`: the CLI entry that runs this daemon, null when it has none (in-process). */
  readonly executable: string | null;
}

/** §8.1 ping and shutdown. */
export function registerCoreOps(router: OpRouter, deps: CoreOpsDeps): void {
  // Asked of the router at each ping (ops may be registered after this one), a map lookup each:
  // not a fresh Set of all ~250 op names per ping.
  const served = { has: (op: string) => router.serves(op) };
  router.register('ping', () => ({
    version: DAEMON_VERSION,
    implementation: IMPLEMENTATION,
    compatibility: COMPATIBILITY,
    pid: process.pid,
    ts: new Date().toISOString(),
    ipc_v: 1 as const,
    capabilities: daemonCapabilities(served),
    executable: deps.executable,
  }));

  router.register('shutdown', (args) => {
    if (args.expected_pid !== undefined && args.expected_pid !== process.pid) {
      throw new IpcError(ErrorCodes.daemonOwnerMismatch, 'expected_pid does not match this daemon; not shutting down', {
        expected_pid: args.expected_pid,
        pid: process.pid,
      });
    }
    deps.requestShutdown('shutdown op');
    return { message: 'shutting down' };
  });
}
