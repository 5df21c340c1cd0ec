import { IpcError } from '@cccc/ipc-protocol';

/**
 * Stable codes of the context ops. The spec names version_conflict, permission_denied and
 * io_error (§8.8); the rest follow §6 (invalid_request with `details.field` / `details.reason`).
 */
export const ContextErrorCodes = {
  invalidRequest: 'invalid_request',
  permissionDenied: 'permission_denied',
  taskNotFound: 'task_not_found',
  actorNotFound: 'actor_not_found',
  versionConflict: 'version_conflict',
  ioError: 'io_error',
} as const;

export type ContextErrorCode = (typeof ContextErrorCodes)[keyof typeof ContextErrorCodes];

export function contextError(code: ContextErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}

/** A rejected batch names the op that failed: its index in `ops` and its `op` name. */
export interface OpRejection {
  readonly code: ContextErrorCode;
  readonly message: string;
  readonly details: Record<string, unknown> & { op_index: number; op: string };
}

export function rejectionError(r: OpRejection): IpcError {
  return contextError(r.code, r.message, r.details);
}
