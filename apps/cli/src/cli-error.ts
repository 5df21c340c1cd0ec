import { IpcError } from '@cccc/ipc-protocol/call';

/**
 * Codes of failures the CLI detects itself, before (or instead of) calling the daemon. Several
 * are the daemon's own codes for the same mistake (invalid_patch, invalid_state, ...), so a
 * script sees one code whichever side caught it.
 */
export const CliErrorCodes = {
  /** No `--group` and no active group (`cccc use` / `cccc attach` set one). */
  noActiveGroup: 'no_active_group',
  /** An inbox or history command that cannot tell whose messages. */
  missingActorId: 'missing_actor_id',
  invalidRequest: 'invalid_request',
  /** `--env` entries are KEY=VALUE. */
  invalidEnvEntry: 'invalid_env_entry',
  invalidPatch: 'invalid_patch',
  invalidCommand: 'invalid_command',
  invalidState: 'invalid_state',
  /** A destructive command without `--confirm`. */
  confirmationRequired: 'confirmation_required',
  /** `cccc term` outside an interactive terminal. */
  notATty: 'not_a_tty',
  /** An event stream that failed without naming a code. */
  streamError: 'stream_error',
  /** The daemon ended an event stream the user did not stop. */
  streamClosed: 'stream_closed',
} as const;

export type CliErrorCode = (typeof CliErrorCodes)[keyof typeof CliErrorCodes];

/**
 * A failure the CLI detects. It reuses the wire error class so `reportError` prints it exactly
 * like a daemon error: `error: <code>: <message>`.
 */
export function cliError(code: CliErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
