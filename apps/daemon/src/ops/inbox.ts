import { checkPermission, findActor, principalOf } from '@cccc/groups';
import { ErrorCodes, IpcError, type OpRouter } from '@cccc/ipc-protocol';
import type { StoreDeps } from '../kernel/store-deps.js';

export type InboxOpsDeps = Pick<StoreDeps, 'groups' | 'ledgers' | 'groupLocks'>;

/** §8.7 Inbox and message history. */
export function registerInboxOps(router: OpRouter, deps: InboxOpsDeps): void {
  const target = (groupId: string, actorId: string) => {
    if (actorId === 'user') throw new IpcError(ErrorCodes.invalidRequest, 'the user has no Mail inbox', { field: 'actor_id' });
    const group = deps.groups.get(groupId);
    findActor(group.actors, actorId);
    return group;
  };

  router.register('inbox_peek', async (args) => {
    const group = target(args.group_id, args.actor_id);
    checkPermission(principalOf(args.by), 'inbox.read', { actors: group.actors, targetActorId: args.actor_id });
    const view = (await deps.ledgers.get(args.group_id)).inboxPeek({ actorId: args.actor_id, limit: args.limit });
    return { messages: view.messages, cursor: view.cursor };
  });

  router.register('inbox_read', async (args) => {
    const by = principalOf(args.by);
    const group = target(args.group_id, args.actor_id);
    checkPermission(by, 'mail.mark_read', { actors: group.actors, targetActorId: args.actor_id });
    const store = await deps.ledgers.get(args.group_id);
    const consumed = await deps.groupLocks.run(`inbox:${args.group_id}:${args.actor_id}`, () =>
      store.inboxConsume({ actorId: args.actor_id, by, limit: args.limit }),
    );
    return consumed;
  });

  router.register('message_history', async (args) => {
    const group = target(args.group_id, args.actor_id);
    checkPermission(principalOf(args.by), 'history.read', { actors: group.actors, targetActorId: args.actor_id });
    return (await deps.ledgers.get(args.group_id)).messageHistory({
      actorId: args.actor_id,
      mode: args.mode,
      query: args.query,
      beforeEventId: args.before_event_id,
      limit: args.limit,
    });
  });
}
