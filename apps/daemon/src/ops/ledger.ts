import { checkPermission, principalOf } from '@cccc/groups';
import { IpcError, isEventOfKind, type OpResult, type OpRouter } from '@cccc/ipc-protocol';
import { LedgerErrorCodes, type LedgerEvent } from '@cccc/ledger';
import type { Kernel } from '../kernel/kernel.js';
import { recipientStatuses } from '../messaging/statuses.js';

const MAX_PAGE = 1000;
const clamp = (limit: number) => Math.min(MAX_PAGE, limit);

/** The searchable text of an event: a message's text, a notice's title and message. */
function searchableText(event: LedgerEvent): Array<string | null | undefined> {
  if (isEventOfKind(event, 'chat.message')) return [event.data.text];
  if (isEventOfKind(event, 'system.notify')) return [event.data.title, event.data.message];
  // Other kinds are open records here; a string `text`, `title` or `message` is still searched.
  const { text, title, message } = event.data;
  return [text, title, message].map((v) => (typeof v === 'string' ? v : undefined));
}

function matchesQuery(event: LedgerEvent, needle: string): boolean {
  return searchableText(event).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
}

/** §8.12 maintenance plus the read extensions the Web and tools use (ledger_tail/search/statuses). */
export function registerLedgerOps(router: OpRouter, kernel: Kernel): void {
  const admin = (groupId: string, by: string | undefined) => {
    const group = kernel.groups.get(groupId);
    checkPermission(principalOf(by), 'group.update', { actors: group.actors });
    return group;
  };

  router.register('ledger_snapshot', async (args) => {
    admin(args.group_id, args.by);
    const report = await (await kernel.ledger(args.group_id)).snapshot({ reason: args.reason });
    return { snapshot: report as unknown as Record<string, unknown> };
  });

  router.register('ledger_compact', async (args) => {
    admin(args.group_id, args.by);
    const report = await (await kernel.ledger(args.group_id)).compact({ reason: args.reason, force: args.force });
    return report as unknown as Record<string, unknown>;
  });

  router.register('ledger_tail', async (args) => {
    const group = kernel.groups.get(args.group_id);
    const store = await kernel.ledger(args.group_id);
    const kinds = args.kinds && args.kinds.length > 0 ? new Set(args.kinds) : undefined;
    const limit = clamp(args.limit);
    const page: LedgerEvent[] = [];
    let hasMore = false;
    let skipping = args.before_event_id !== undefined;
    if (skipping && !store.findById(args.before_event_id!)) {
      throw new IpcError(LedgerErrorCodes.eventNotFound, `before_event_id ${args.before_event_id} is not in this ledger`, {
        field: 'before_event_id',
      });
    }
    for (const event of store.readBackward()) {
      if (skipping) {
        if (event.id === args.before_event_id) skipping = false;
        continue;
      }
      if (kinds && !kinds.has(event.kind)) continue;
      if (page.length === limit) {
        hasMore = true;
        break;
      }
      page.push(event);
    }
    page.reverse();
    const result: OpResult<'ledger_tail'> = { events: page, has_more: hasMore };
    if (args.with_read_status || args.with_obligation_status) {
      const read: NonNullable<OpResult<'ledger_tail'>['read_status']> = {};
      const obligations: NonNullable<OpResult<'ledger_tail'>['obligation_status']> = {};
      for (const event of page) {
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
    kernel.groups.get(args.group_id);
    const store = await kernel.ledger(args.group_id);
    const kinds = args.kinds && args.kinds.length > 0 ? new Set(args.kinds) : undefined;
    const needle = args.query.toLowerCase();
    const limit = clamp(args.limit);
    const events: LedgerEvent[] = [];
    let hasMore = false;
    for (const event of store.readBackward()) {
      if (kinds && !kinds.has(event.kind)) continue;
      if (!matchesQuery(event, needle)) continue;
      if (events.length === limit) {
        hasMore = true;
        break;
      }
      events.push(event);
    }
    return { events, has_more: hasMore };
  });

  router.register('ledger_statuses', async (args) => {
    const group = kernel.groups.get(args.group_id);
    const store = await kernel.ledger(args.group_id);
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
