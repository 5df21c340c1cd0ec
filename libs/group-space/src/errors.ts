import { IpcError } from '@cccc/ipc-protocol';

/** Stable codes of the group_space_* ops (spec §8.18, common provider error semantics, §6). */
export const SpaceErrorCodes = {
  invalidRequest: 'invalid_request',
  permissionDenied: 'permission_denied',
  capabilityUnavailable: 'capability_unavailable',
  bindingChanged: 'binding_changed',
  jobNotFound: 'space_job_not_found',
  notConfigured: 'space_provider_not_configured',
  authInvalid: 'space_provider_auth_invalid',
  notFound: 'space_provider_not_found',
  compatMismatch: 'space_provider_compat_mismatch',
  timeout: 'space_provider_timeout',
  rateLimited: 'space_provider_rate_limited',
  outcomeUnresolved: 'space_provider_outcome_unresolved',
  upstreamError: 'space_provider_upstream_error',
  ioError: 'io_error',
  sourceUnsupported: 'space_source_unsupported',
  sourceTooLarge: 'space_source_too_large',
  pathOutsideRoot: 'space_path_outside_root',
} as const;

export type SpaceErrorCode = (typeof SpaceErrorCodes)[keyof typeof SpaceErrorCodes];

export function spaceError(code: SpaceErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}

/** Transient provider failures: retried with backoff inside one attempt window. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set([SpaceErrorCodes.timeout, SpaceErrorCodes.rateLimited]);

export function errorShape(error: unknown): { code: string; message: string } {
  if (error instanceof IpcError) return { code: error.code, message: error.message };
  return { code: SpaceErrorCodes.upstreamError, message: error instanceof Error ? error.message : String(error) };
}
