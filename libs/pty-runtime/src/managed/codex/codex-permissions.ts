import type { PermissionsRequestApprovalParams } from './generated/v2/PermissionsRequestApprovalParams.js';
import type { PermissionsRequestApprovalResponse } from './generated/v2/PermissionsRequestApprovalResponse.js';
import type { GrantedPermissionProfile } from './generated/v2/GrantedPermissionProfile.js';

// Codex's `item/permissions/requestApproval` (the model asks for more sandbox: network, extra
// readable/writable paths) as a CCCC permission a person allows or denies (spec §8.9). Pure: the
// session owns the pending request and the JSON-RPC id.

export const CODEX_PERMISSIONS_METHOD = 'item/permissions/requestApproval';

/** Pending-request kind (beside `command` / `file_change`), answered allow/deny. */
export const PERMISSIONS_KIND = 'permissions';

/** The request, or null when its params are not a usable permissions request. */
export function permissionsRequestOf(params: unknown): PermissionsRequestApprovalParams | null {
  const p = (params ?? {}) as Partial<PermissionsRequestApprovalParams>;
  if (typeof p.threadId !== 'string' || typeof p.permissions !== 'object' || p.permissions === null) return null;
  return p as PermissionsRequestApprovalParams;
}

/** What a person reviews: the extra access asked for, where and why; nothing else. */
export function permissionsSummary(request: PermissionsRequestApprovalParams): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  if (request.cwd) summary.cwd = request.cwd;
  if (request.reason) summary.reason = request.reason;
  const { network, fileSystem } = request.permissions;
  if (network) summary.network = { enabled: network.enabled };
  if (fileSystem) {
    summary.file_system = {
      read: fileSystem.read ?? [],
      write: fileSystem.write ?? [],
      ...(fileSystem.entries ? { entries: fileSystem.entries.map((e) => ({ path: e.path, access: e.access })) } : {}),
    };
  }
  return summary;
}

/**
 * The reply: allowed grants exactly what was asked, for this turn only (at most one operation's
 * worth: never `session`); denied (or cancelled) grants nothing.
 */
export function permissionsResponse(request: PermissionsRequestApprovalParams, allow: boolean): PermissionsRequestApprovalResponse {
  if (!allow) return { permissions: {}, scope: 'turn' };
  const granted: GrantedPermissionProfile = {};
  if (request.permissions.network) granted.network = request.permissions.network;
  if (request.permissions.fileSystem) granted.fileSystem = request.permissions.fileSystem;
  return { permissions: granted, scope: 'turn' };
}
