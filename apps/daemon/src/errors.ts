import { IpcError } from '@cccc/ipc-protocol';

/**
 * Stable wire codes the daemon app throws itself (spec §6 and §8). Protocol codes come from
 * `ErrorCodes` (`@cccc/ipc-protocol`), domain codes from each library's table (`GroupErrorCodes`,
 * `LedgerErrorCodes`, `ContextErrorCodes`); a code lives in exactly one of these tables' owners.
 * Wire codes never change once shipped: clients match on them.
 */
export const DaemonErrorCodes = {
  /** Shutdown has begun: no new runtime starts. */
  daemonStopping: 'daemon_stopping',
  /** An actor start failed before the agent ran (spawn error) or right after. */
  runtimeStartFailed: 'runtime_start_failed',
  /** A Claude background session's recorded conversation could not be resumed as itself (§8.4); nothing fresh was started. */
  claudeResumeFailed: 'claude_resume_failed',
  /** An actor stop whose provider termination could not be confirmed (its ownership is kept for a retry). */
  runtimeStopFailed: 'runtime_stop_failed',
  /** An actor's default scope has no project root to run in. */
  missingProjectRoot: 'missing_project_root',
  /** The hook activity store could not be read. */
  runtimeActivityUnavailable: 'runtime_activity_unavailable',
  /** debug_snapshot needs developer mode. */
  developerModeRequired: 'developer_mode_required',
  /** debug_tail_logs / debug_clear_logs of a component that has no log. */
  invalidComponent: 'invalid_component',
  /** A log path that is a symlink or otherwise cannot be opened: refused, never followed. */
  logUnreadable: 'log_unreadable',
  /** blob_upload over its size limit. */
  fileTooLarge: 'file_too_large',
  /** Not a stored blob name (`<sha256>_<name>`). */
  invalidBlob: 'invalid_blob',
  blobNotFound: 'blob_not_found',
  /** An attachment that does not name a stored blob of this group. */
  invalidAttachment: 'invalid_attachment',
  /** Terminal columns / rows out of range. */
  invalidSize: 'invalid_size',
  /** The attachment may read the terminal but not write or resize it. */
  terminalNotWriter: 'terminal_not_writer',
  /** The actor does not run on the PTY runner, so it has no terminal. */
  notPtyActor: 'not_pty_actor',
  /** message_deliver: an earlier delivery may already have reached the actor (§8.6). */
  deliveryAmbiguous: 'delivery_ambiguous',
  /** message_deliver to a disabled actor. */
  deliveryBlocked: 'delivery_blocked',
  /** reply_request_cancel of a message that is not request_reply. */
  notReplyRequest: 'not_reply_request',
  /** message_upload_preflight of an operation this daemon does not upload for. */
  unsupportedOperation: 'unsupported_operation',
  /** headless_*: the actor has no running managed session (reads never create one). */
  sessionNotFound: 'session_not_found',
  /** headless_control for another generation than the running session's. */
  staleGeneration: 'stale_generation',
  /** headless_control with a request token that is unknown, stale or already settled. */
  requestNotFound: 'request_not_found',
  /** headless_control cancel while no turn runs. */
  noActiveTurn: 'no_active_turn',
} as const;

export type DaemonErrorCode = (typeof DaemonErrorCodes)[keyof typeof DaemonErrorCodes];

export function daemonError(code: DaemonErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
