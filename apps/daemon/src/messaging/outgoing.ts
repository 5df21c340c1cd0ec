import {
  assertRootBodyPolicy,
  groupSettings,
  resolveRecipients,
  type GroupDoc,
  type MessageMode,
  type ResolvedRecipients,
} from '@cccc/groups';
import { ErrorCodes, IpcError } from '@cccc/ipc-protocol';
import { assertPeerInsight, normalizeInsight } from './insight.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';

export interface OutgoingInput {
  readonly by: string;
  readonly text: string;
  readonly to?: readonly string[] | undefined;
  readonly mode: MessageMode;
  readonly hasAttachments: boolean;
  readonly insight?: unknown;
  readonly requirePeerInsight?: boolean | undefined;
  readonly replyTo?: string | undefined;
  /** Reply default audience: the original sender. */
  readonly fallbackTo?: readonly string[] | undefined;
}

export interface Outgoing {
  readonly routing: ResolvedRecipients;
  readonly insight: string | null;
}

/**
 * Every deterministic rule of a new chat.message, in the spec's order, before anything is
 * written: sender, content, routing, insight, then the group's root-body policy.
 */
/** The sender must be the user, the system, a service principal or an actor of the group. */
export function assertKnownSender(group: GroupDoc, by: string): void {
  if (by !== 'user' && by !== 'system' && !by.startsWith('svc:') && !group.actors.some((a) => a.id === by)) {
    throw new IpcError(ErrorCodes.permissionDenied, `unknown sender: ${by} is not an actor of this group`, { by });
  }
}

export function validateOutgoing(group: GroupDoc, input: OutgoingInput): Outgoing {
  const { by } = input;
  assertKnownSender(group, by);
  if (input.text.trim() === '' && !input.hasAttachments) {
    throw daemonError(DaemonErrorCodes.emptyMessage, 'message text is empty and there are no attachments');
  }
  const insight = normalizeInsight(input.insight);
  const settings = groupSettings(group);
  const routing = resolveRecipients({
    by,
    to: input.to ?? null,
    mode: input.mode,
    actors: group.actors,
    defaultSendTo: settings.default_send_to,
    fallbackTo: input.fallbackTo,
  });
  assertPeerInsight(input.requirePeerInsight, routing.audience, insight);
  assertRootBodyPolicy(settings.root_body_policy, { text: input.text, reply_to: input.replyTo ?? null });
  return { routing, insight };
}
