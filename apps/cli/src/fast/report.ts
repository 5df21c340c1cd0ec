import { DaemonCallError, DaemonTransportError } from '@cccc/ipc-protocol/node';
import { startProblemLines } from '../start-lines.js';
import { startFailureIn } from './envelope-check.js';

// The fast path's `reportError` (output.ts): the same bytes for the errors a ping, send or reply
// can meet, without the IpcError class of @cccc/ipc-protocol's zod-laden index. The one error
// the fast path raises itself (no active group) is a `LocalError`, printed as IpcError is.

/** A failure the fast path detects before calling the daemon: `error: <code>: <message>`. */
export class LocalError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const printJson = (value: unknown): void => {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
};

/** Print `error` as the full CLI does and return the exit code (1). */
export function reportFastError(error: unknown, json: boolean): number {
  if (error instanceof DaemonCallError) {
    if (json) printJson({ ok: false, error: { code: error.code, message: error.message, details: error.details } });
    else {
      process.stderr.write(`error: ${error.code}: ${error.message.replace(/^[^:]+: [^:]+: /, '')}\n`);
      const failure = startFailureIn(error.details);
      if (failure) process.stderr.write(startProblemLines(String(error.details['actor_id'] ?? 'actor'), failure, 'not started').join('\n') + '\n');
    }
    return 1;
  }
  if (error instanceof LocalError) {
    if (json) printJson({ ok: false, error: { code: error.code, message: error.message, details: {} } });
    else process.stderr.write(`error: ${error.code}: ${error.message}\n`);
    return 1;
  }
  if (error instanceof DaemonTransportError) {
    if (json) printJson({ ok: false, error: { code: `transport_${error.failure}`, message: error.message, details: {} } });
    else process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`error: ${(error as Error)?.message ?? String(error)}\n`);
  return 1;
}
