import { groupError } from './errors.js';
import { groupSettings } from './group-settings.js';
import { assertPeerInsight, normalizeInsight } from './insight.js';
import { assertKnownSender, foreignPrincipal } from './principals.js';
import { resolveRecipients, type MessageMode, type ResolvedRecipients } from './recipients.js';
import { assertRootBodyPolicy } from './root-body-policy.js';
import type { GroupDoc } from './schemas/group.js';

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
export function validateOutgoing(group: GroupDoc, input: OutgoingInput): Outgoing {
  const { by } = input;
  assertKnownSender(group, by);
  if (input.text.trim() === '' && !input.hasAttachments) {
    throw groupError('empty_message', 'message text is empty and there are no attachments');
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

/** A reply answers; it cannot open another obligation, so it is `send` or `mail`. */
export function assertReplyMode(mode: MessageMode): void {
  if (mode === 'request_reply') {
    throw groupError('invalid_request', 'a reply uses message_mode send or mail', { field: 'message_mode' });
  }
}

/** send_cross_group names another group as its destination. */
export function assertOtherGroup(srcGroupId: string, dstGroupId: string): void {
  if (dstGroupId === srcGroupId) throw groupError('invalid_request', 'dst_group_id must name another group', { field: 'dst_group_id' });
}

export interface CrossGroupInput {
  readonly by: string;
  /** The source group's id, which qualifies an actor sender at the destination. */
  readonly srcGroupId: string;
  readonly text: string;
  readonly to?: readonly string[] | undefined;
  readonly mode: MessageMode;
  readonly insight?: unknown;
  readonly requirePeerInsight?: boolean | undefined;
}

export interface CrossGroupOutgoing extends Outgoing {
  /** The sender as the destination group records it (see `foreignPrincipal`). */
  readonly foreignBy: string;
}

/**
 * send_cross_group: the sender must exist at the source; at the destination it is a foreign
 * principal, so the message is routed there as the system's (no sender to exclude).
 */
export function validateCrossGroup(src: GroupDoc, dst: GroupDoc, input: CrossGroupInput): CrossGroupOutgoing {
  assertKnownSender(src, input.by);
  if (input.text.trim() === '') throw groupError('empty_message', 'message text is empty');
  const out = validateOutgoing(dst, {
    by: 'system',
    text: input.text,
    to: input.to,
    mode: input.mode,
    hasAttachments: false,
    insight: input.insight,
    requirePeerInsight: input.requirePeerInsight,
  });
  return { ...out, foreignBy: foreignPrincipal(input.by, input.srcGroupId) };
}

/** The scope a message is filed under: the attached scope containing `path`, else the active one. */
export function messageScopeKey(group: Pick<GroupDoc, 'scopes' | 'active_scope_key'>, path?: string): string {
  if (path) {
    const match = (group.scopes ?? []).find((s) => s.url && (path === s.url || path.startsWith(s.url.endsWith('/') ? s.url : s.url + '/')));
    if (match) return match.scope_key;
  }
  return group.active_scope_key ?? '';
}

/** A send-like request as the message ops carry it (send, send_files, message_upload_preflight). */
export interface MessageRequest {
  readonly text: string;
  readonly to?: readonly string[] | undefined;
  readonly message_mode: MessageMode;
  readonly insight?: unknown;
  readonly require_peer_insight?: boolean | undefined;
}

/** `validateOutgoing` for a new (non-reply) message from `by`. */
export function validateMessage(group: GroupDoc, by: string, req: MessageRequest, hasAttachments: boolean): Outgoing {
  return validateOutgoing(group, outgoingOf(by, req, hasAttachments));
}

function outgoingOf(by: string, req: MessageRequest, hasAttachments: boolean) {
  return { by, text: req.text, to: req.to, mode: req.message_mode, hasAttachments, insight: req.insight, requirePeerInsight: req.require_peer_insight };
}

/** `validateOutgoing` for a reply to `source`: its default audience is the original sender. */
export function validateReply(group: GroupDoc, by: string, source: { readonly id: string; readonly by: string }, req: MessageRequest, hasAttachments: boolean): Outgoing {
  return validateOutgoing(group, { ...outgoingOf(by, req, hasAttachments), replyTo: source.id, fallbackTo: [source.by] });
}
