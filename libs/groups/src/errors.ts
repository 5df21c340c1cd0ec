// The zod-free entry: `@cccc/groups/home` (command lines) throws these too, and the CLI loads it
// for nearly every command (the IpcError class is the same one the root entry exports).
import { IpcError } from '@cccc/ipc-protocol/call';

/** Stable codes this library throws (spec §6, §8.3–§8.6). The daemon maps them to the wire unchanged. */
export const GroupErrorCodes = {
  groupNotFound: 'group_not_found',
  actorNotFound: 'actor_not_found',
  actorExists: 'actor_exists',
  actorAddFailed: 'actor_add_failed',
  invalidActorId: 'invalid_actor_id',
  invalidRequest: 'invalid_request',
  invalidPatch: 'invalid_patch',
  invalidState: 'invalid_state',
  invalidEnvKey: 'invalid_env_key',
  invalidCommand: 'invalid_command',
  permissionDenied: 'permission_denied',
  pathNotFound: 'path_not_found',
  invalidPath: 'invalid_path',
  outsideScope: 'outside_scope',
  scopeNotAttached: 'scope_not_attached',
  noActiveScope: 'no_active_scope',
  groupCorrupt: 'group_corrupt',
  groupExists: 'group_exists',
  invalidRecipient: 'invalid_recipient',
  mixedRecipientKinds: 'mixed_recipient_kinds',
  mailRequiresActorRecipient: 'mail_requires_actor_recipient',
  concreteRecipientsRequired: 'concrete_recipients_required',
  noEnabledRecipients: 'no_enabled_recipients',
  invalidMessageMode: 'invalid_message_mode',
  profileNotFound: 'profile_not_found',
  profileInUse: 'profile_in_use',
  profileRevisionConflict: 'profile_revision_conflict',
  profileLinked: 'profile_linked',
  preambleTooLarge: 'preamble_too_large',
  confirmationRequired: 'confirmation_required',
  rootBodyNotSummary: 'root_body_not_summary',
  /** A message with no text and no attachments. */
  emptyMessage: 'empty_message',
  /** `insight` is not a string or is too long. */
  invalidInsight: 'invalid_insight',
  /** The request requires a peer insight on messages to agents. */
  peerInsightRequired: 'peer_insight_required',
  /** presentation_publish: no usable content for the card type, a bad table or a non-HTTP(S) url. */
  invalidCard: 'invalid_card',
} as const;

export type GroupErrorCode = (typeof GroupErrorCodes)[keyof typeof GroupErrorCodes];

export function groupError(code: GroupErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
