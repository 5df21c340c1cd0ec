import { IpcError } from '@cccc/ipc-protocol';

/** Stable codes this library throws (spec §8.3 capability ops). The daemon maps them to the wire unchanged. */
export const CapabilityErrorCodes = {
  invalidRequest: 'invalid_request',
  permissionDenied: 'permission_denied',
  actorNotFound: 'actor_not_found',
  /** No catalog record (built-in, curated or imported) has this id. */
  capabilityNotFound: 'capability_not_found',
  /** capability_source_delete of a built-in or curated source. */
  protectedCapabilitySource: 'protected_capability_source',
  /** capability_allowlist_update with an expected_revision that is no longer current. */
  allowlistRevisionMismatch: 'allowlist_revision_mismatch',
  /** The overlay (or the merge it produces) is not a valid policy. */
  allowlistValidationFailed: 'allowlist_validation_failed',
  /** capability_tool_call of a name that is not a dynamic tool visible to the caller. */
  capabilityToolNotFound: 'capability_tool_not_found',
  /** The external MCP server could not be started or the call failed at the transport. */
  capabilityToolCallFailed: 'capability_tool_call_failed',
  /** capability_install_target of a target this daemon cannot read (missing path, no SKILL.md). */
  installTargetInvalid: 'install_target_invalid',
} as const;

export type CapabilityErrorCode = (typeof CapabilityErrorCodes)[keyof typeof CapabilityErrorCodes];

export function capabilityError(code: CapabilityErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
