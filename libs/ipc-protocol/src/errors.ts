/**
 * Stable, machine-readable error codes of daemon IPC v1 (spec §6). The set is open: clients
 * handle unknown codes gracefully, so this lists the codes this implementation emits.
 */
export const ErrorCodes = {
  invalidRequest: 'invalid_request',
  unknownOp: 'unknown_op',
  missingGroupId: 'missing_group_id',
  missingActorId: 'missing_actor_id',
  groupNotFound: 'group_not_found',
  actorNotFound: 'actor_not_found',
  permissionDenied: 'permission_denied',
  daemonOwnerMismatch: 'daemon_owner_mismatch',
  internalError: 'internal_error',
  /** Our extension: the daemon holds its connection cap; retry later (details: `limit`). */
  tooManyConnections: 'too_many_connections',
  /** Our extension: a request line was not completed within the handshake timeout (details: `timeout_ms`). */
  requestTimeout: 'request_timeout',
} as const;

export type KnownErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/**
 * The one error class that crosses the wire. Domain code throws it (or an error the daemon maps
 * to it in one place); the router turns it into `{code, message, details}`.
 */
export class IpcError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'IpcError';
    this.code = code;
    this.details = details;
  }
}

export function isIpcError(value: unknown): value is IpcError {
  return value instanceof IpcError;
}
