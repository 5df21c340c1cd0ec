import { IpcError } from '@cccc/ipc-protocol';

/** Stable codes of §8.20 (plus `group_copy_too_large`, ours: the base64 path's size bound). */
export const GroupCopyErrorCodes = {
  invalidGroupCopy: 'invalid_group_copy',
  tooLarge: 'group_copy_too_large',
} as const;

/** A package that is not a valid, supported, safe CCCC group copy; `reason` names the rule it broke. */
export function invalidGroupCopy(reason: string, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(GroupCopyErrorCodes.invalidGroupCopy, message, { reason, ...details });
}
