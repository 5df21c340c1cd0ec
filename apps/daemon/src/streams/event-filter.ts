import { isRecipientOf, type GroupDoc } from '@cccc/groups';
import { isEventOfKind, type CCCSEventV1 } from '@cccc/ipc-protocol';

/** §8.15: the kinds CCCC streams when the client names none. */
export const DEFAULT_STREAM_KINDS = [
  'chat.message',
  'mail.read',
  'chat.reply_request.cancelled',
  'runtime.delivery',
  'system.notify',
] as const;

/**
 * The actor view of a stream: only what concerns that actor, never its own chat messages.
 * `groupOf` is read per event so role changes apply at once.
 */
export function actorViewFilter(actorId: string, groupOf: () => GroupDoc): (event: CCCSEventV1) => boolean {
  return (event) => {
    if (isEventOfKind(event, 'chat.message')) {
      if (event.by === actorId) return false;
      const group = groupOf();
      const actor = group.actors.find((a) => a.id === actorId);
      return actor !== undefined && isRecipientOf({ by: event.by, to: event.data.to ?? [] }, actor, group.actors);
    }
    if (isEventOfKind(event, 'system.notify')) {
      const { target_actor_id: target, kind } = event.data;
      if (target === actorId) return true;
      return (target === null || target === undefined) && kind !== 'mail_notice' && kind !== 'reply_notice';
    }
    if (isEventOfKind(event, 'mail.read') || isEventOfKind(event, 'runtime.delivery')) return event.data.actor_id === actorId;
    return true;
  };
}

export function kindFilter(kinds: readonly string[] | null | undefined): (event: CCCSEventV1) => boolean {
  const allow = new Set(kinds && kinds.length > 0 ? kinds : DEFAULT_STREAM_KINDS);
  return (event) => allow.has(event.kind);
}
