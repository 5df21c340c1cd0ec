import { checkPermission, principalOf } from '@cccc/groups';
import { isEventOfKind, type OpResult, type OpRouter } from '@cccc/ipc-protocol';
import type { StoreDeps } from '../kernel/store-deps.js';
import { recipientStatuses } from '../messaging/statuses.js';

export type LedgerOpsDeps = Pick<StoreDeps, 'groups' | 'ledgers'>;

/** §8.12 maintenance plus the read extensions the Web and tools use (ledger_tail/search/statuses). */
export function registerLedgerOps(router: OpRouter, deps: LedgerOpsDeps): void {
  const admin = (groupId: string, by: string | undefined) => {
    const group = deps.groups.get(groupId);
    checkPermission(principalOf(by), 'group.update', { actors: group.actors });
    return group;
  };

  router.register('ledger_snapshot', async (args) => {
    admin(args.group_id, args.by);
    const report = await (await deps.ledgers.get(args.group_id)).snapshot({ reason: args.reason });
    return { snapshot: report as unknown as Record<string, unknown> };
  });

  router.register('ledger_compact', async (args) => {
    admin(args.group_id, args.by);
    const report = await (await deps.ledgers.get(args.group_id)).compact({ reason: args.reason, force: args.force });
    return report as unknown as Record<string, unknown>;
  });

  router.register('ledger_tail', async (args) => {
    const group = deps.groups.get(args.group_id);
    const store = await deps.ledgers.get(args.group_id);
    const page = store.tail({ kinds: args.kinds, beforeEventId: args.before_event_id, limit: args.limit });
    const result: OpResult<'ledger_tail'> = page;
    if (args.with_read_status || args.with_obligation_status) {
      const read: NonNullable<OpResult<'ledger_tail'>['read_status']> = {};
      const obligations: NonNullable<OpResult<'ledger_tail'>['obligation_status']> = {};
      for (const event of page.events) {
        if (!isEventOfKind(event, 'chat.message')) continue;
        const statuses = recipientStatuses(store, group, event);
        read[event.id] = Object.fromEntries(
          Object.entries(statuses).map(([aid, s]) => [aid, { delivery_state: s.delivery_state, read: s.read }]),
        );
        obligations[event.id] = Object.fromEntries(
          Object.entries(statuses).map(([aid, s]) => [aid, { reply_requested: s.reply_requested, replied: s.replied, cancelled: s.cancelled }]),
        );
      }
      if (args.with_read_status) result.read_status = read;
      if (args.with_obligation_status) result.obligation_status = obligations;
    }
    return result;
  });

  router.register('ledger_search', async (args) => {
    deps.groups.get(args.group_id);
    return (await deps.ledgers.get(args.group_id)).search({ query: args.query, kinds: args.kinds, limit: args.limit });
  });

  router.register('ledger_statuses', async (args) => {
    const group = deps.groups.get(args.group_id);
    const store = await deps.ledgers.get(args.group_id);
    const statuses: OpResult<'ledger_statuses'>['statuses'] = {};
    const unknown: string[] = [];
    for (const id of new Set(args.event_ids)) {
      const event = store.findById(id);
      if (!event || !isEventOfKind(event, 'chat.message')) unknown.push(id);
      else statuses[id] = recipientStatuses(store, group, event);
    }
    return { group_id: args.group_id, statuses, unknown_event_ids: unknown };
  });
}
