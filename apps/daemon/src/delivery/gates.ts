import { isRecipientOf, isVisibleActor, type ActorDoc, type GroupDoc } from '@cccc/groups';
import { isEventOfKind, type CCCSEventV1, type EventOf } from '@cccc/ipc-protocol';

/** §8.3: paused and stopped groups hold every automatic write to a runtime; idle still delivers. */
export function groupHoldReason(group: GroupDoc): 'group_paused' | 'group_stopped' | undefined {
  if (!group.running || group.state === 'stopped') return 'group_stopped';
  if (group.state === 'paused') return 'group_paused';
  return undefined;
}

export type MessageMode = 'send' | 'request_reply' | 'mail';

/** A chat.message's delivery mode: a legacy row without one delivers like `send`. */
export function modeOf(event: CCCSEventV1): MessageMode {
  return (isEventOfKind(event, 'chat.message') && event.data.message_mode) || 'send';
}

const NOTICE_KINDS = new Set(['mail_notice', 'reply_notice']);

/** What is pushed to a runtime: chat messages and system notices. */
export type DeliverableEvent = EventOf<'chat.message'> | EventOf<'system.notify'>;

export function isDeliverable(event: CCCSEventV1): event is CCCSEventV1 & DeliverableEvent {
  return isEventOfKind(event, 'chat.message') || isEventOfKind(event, 'system.notify');
}

/** The actors an event addresses (selectors resolved, sender excluded), whatever its mode. */
export function addressedActors(event: CCCSEventV1, group: GroupDoc): ActorDoc[] {
  if (isEventOfKind(event, 'chat.message')) {
    const to = event.data.to ?? [];
    return group.actors.filter((a) => isRecipientOf({ by: event.by, to }, a, group.actors));
  }
  if (isEventOfKind(event, 'system.notify')) {
    const target = event.data.target_actor_id;
    if (target) return group.actors.filter((a) => a.id === target);
    if (NOTICE_KINDS.has(event.data.kind)) return [];
    return group.actors.filter((a) => a.id !== event.by && isVisibleActor(a));
  }
  return [];
}

/**
 * Actors a committed event is pushed to, split by desired state: enabled ones get delivery,
 * disabled ones a `delivery_blocked` fact. Mail is never pushed.
 */
export function pushAudience(event: CCCSEventV1, group: GroupDoc): { enabled: string[]; disabled: string[] } {
  const out = { enabled: [] as string[], disabled: [] as string[] };
  if (event.kind === 'chat.message' && modeOf(event) === 'mail') return out;
  for (const a of addressedActors(event, group)) (a.enabled === false ? out.disabled : out.enabled).push(a.id);
  return out;
}
