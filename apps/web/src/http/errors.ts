import { DaemonCallError, DaemonTransportError } from '@cccc/ipc-protocol/node';

/** An error the Web answers with its own code (bad body, unknown route, auth). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

const CONFLICT = /(_exists|_conflict|_busy|^already_|_already_|_not_running|_running|_not_writer|^not_pty_actor)$/;

/** The HTTP status for a daemon error code; the code itself is always passed through unchanged. */
export function statusForCode(code: string): number {
  if (code === 'unauthorized') return 401;
  if (code === 'permission_denied' || code === 'forbidden' || code === 'read_only') return 403;
  if (code.endsWith('_not_found') || code === 'not_found' || code === 'unknown_route') return 404;
  if (code === 'method_not_allowed') return 405;
  if (code === 'payload_too_large' || code === 'file_too_large') return 413;
  if (code === 'unsupported_media_type') return 415;
  if (CONFLICT.test(code) || code === 'conflict') return 409;
  if (code === 'internal_error') return 500;
  if (code === 'daemon_unavailable') return 502;
  // A store the daemon cannot read right now (corrupt runtime activity): retry later.
  if (code === 'runtime_activity_unavailable') return 503;
  // invalid_request, missing_*, unsupported_*, invalid_* and every other domain refusal.
  return 400;
}

/** Map anything thrown by a handler to `{status, error}` for the envelope. */
export function toErrorResponse(error: unknown): { status: number; error: ErrorBody } {
  if (error instanceof HttpError) {
    return { status: error.status, error: { code: error.code, message: error.message, details: error.details } };
  }
  if (error instanceof DaemonCallError) {
    const message = error.message.replace(/^[^:]+: [^:]+: /, '');
    return { status: statusForCode(error.code), error: { code: error.code, message, details: error.details } };
  }
  if (error instanceof DaemonTransportError) {
    return {
      status: 502,
      error: { code: 'daemon_unavailable', message: error.message, details: { failure: error.failure } },
    };
  }
  return {
    status: 500,
    error: { code: 'internal_error', message: (error as Error)?.message ?? String(error), details: {} },
  };
}
