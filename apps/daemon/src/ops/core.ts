import { ErrorCodes, IpcError, PreserializedResult, type OpResult, type OpRouter } from '@cccc/ipc-protocol';
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
  router.register('ping', pingAnswer(router, deps.executable));

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

type PingResult = OpResult<'ping'>;

/**
 * ping's answer, serialized once with only `ts` spliced in per call: ping is what clients call
 * most (on a fresh connection, as liveness checks), and its ~900 bytes of JSON were most of the
 * daemon's own work per ping. The capabilities come from the ops the router serves, asked again
 * whenever that set has grown (ops may be registered after this one).
 */
function pingAnswer(router: OpRouter, executable: string | null): () => PreserializedResult<PingResult> {
  const served = { has: (op: string) => router.serves(op) };
  let template: { readonly forOps: number; readonly capabilities: PingResult['capabilities']; readonly head: string; readonly tail: string } | undefined;
  return () => {
    if (template?.forOps !== router.size) {
      const capabilities = daemonCapabilities(served);
      const fixed = { version: DAEMON_VERSION, implementation: IMPLEMENTATION, compatibility: COMPATIBILITY, pid: process.pid };
      // JSON.stringify's text of the object below, in its key order, around `ts`.
      const head = `${JSON.stringify(fixed).slice(0, -1)},"ts":`;
      const tail = `,"ipc_v":1,"capabilities":${JSON.stringify(capabilities)},"executable":${JSON.stringify(executable)}}`;
      template = { forOps: router.size, capabilities, head, tail };
    }
    const ts = new Date().toISOString();
    const value: PingResult = {
      version: DAEMON_VERSION,
      implementation: IMPLEMENTATION,
      compatibility: COMPATIBILITY,
      pid: process.pid,
      ts,
      ipc_v: 1,
      capabilities: template.capabilities,
      executable,
    };
    return new PreserializedResult(value, template.head + JSON.stringify(ts) + template.tail);
  };
}
