import { IpcError } from '@cccc/ipc-protocol';

/**
 * A failure the CLI detects before (or instead of) calling the daemon. It reuses the wire error
 * class so `reportError` prints it exactly like a daemon error: `error: <code>: <message>`.
 */
export function cliError(code: string, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
