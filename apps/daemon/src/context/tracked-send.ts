import { effectiveRole, principalOf, validateOutgoing, type GroupDoc } from '@cccc/groups';
import { ErrorCodes, IpcError, isIpcError, type OpArgs, type OpResult } from '@cccc/ipc-protocol';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import { errorFields, type Logger } from '../log.js';
import type { MessagingService } from '../messaging/messaging-service.js';
import type { ContextService } from './context-service.js';

/**
 * The assignee a delegation implies: the one concrete actor it addresses, if the sender may
 * assign to it (a peer cannot assign another peer, so that case stays unassigned).
 */
function impliedAssignee(group: GroupDoc, by: string, recipientIds: readonly string[], explicitTo: readonly string[] | undefined): string | undefined {
  const concrete = (explicitTo ?? []).filter((t) => !t.startsWith('@') && t !== 'user');
  if (concrete.length !== 1 || recipientIds.length !== 1) return undefined;
  const target = recipientIds[0]!;
  if (effectiveRole(group.actors, by) === 'peer' && target !== by && effectiveRole(group.actors, target) === 'peer') return undefined;
  return target;
}

/**
 * §8.6 tracked_send: a task, then one linked Send carrying its task_ref. The message is
 * validated before the task exists (a bad audience creates nothing); a failed task creation
 * sends nothing; a send that fails after the task is reported as partial_failure.
 */
export interface TrackedSendDeps {
  readonly groups: GroupDocCache;
  readonly groupLocks: KeyedMutex;
  readonly logger: Logger;
  readonly messaging: MessagingService;
  readonly context: ContextService;
}

export class TrackedSend {
  constructor(private readonly deps: TrackedSendDeps) {}

  async run(args: OpArgs<'tracked_send'>): Promise<OpResult<'tracked_send'>> {
    const by = principalOf(args.by);
    const group = this.deps.groups.get(args.group_id);
    const out = validateOutgoing(group, {
      by,
      text: args.text,
      to: args.to,
      mode: 'send',
      hasAttachments: false,
      insight: args.insight,
      requirePeerInsight: args.require_peer_insight,
    });
    // One key at a time per group, so two retries of the same request cannot both create a task.
    return this.deps.groupLocks.run(`tracked_send:${args.group_id}`, async () => {
      const key = args.idempotency_key;
      const existing = key
        ? [...this.deps.context.store(args.group_id).read().tasks.values()].find((t) => t.idempotency_key === key && t.created_by === by)
        : undefined;
      let task = existing;
      if (!task) {
        const assignee = args.assignee ?? impliedAssignee(group, by, out.routing.recipient_ids, args.to);
        const op = {
          op: 'task.create',
          title: args.title,
          outcome: args.outcome,
          checklist: args.checklist,
          priority: args.task_priority,
          assignee,
          waiting_on: args.waiting_on,
          handoff_to: args.handoff_to,
          notes: args.notes,
        };
        const synced = await this.deps.context.sync(args.group_id, by, { ops: [op], idempotencyKey: key });
        const id = synced.changes[0]!.task_id!;
        task = synced.state.tasks.get(id)!;
      }
      const task_ref = { kind: 'task_ref' as const, task_id: task.id, title: task.title, status: task.status };
      const base = { task_id: task.id, task_ref, task_created: true, ...(existing ? { replayed: true } : {}) };
      try {
        const sent = await this.deps.messaging.send({
          group_id: args.group_id,
          text: args.text,
          by,
          to: args.to,
          message_mode: 'send',
          refs: [...(args.refs ?? []), task_ref],
          insight: args.insight,
          require_peer_insight: args.require_peer_insight,
          client_id: key ? `tracked_send:${key}` : undefined,
        });
        return { ...base, event: sent.event, event_id: sent.event.id, message_mode: 'send', message_sent: true, partial_failure: false };
      } catch (error) {
        if (!isIpcError(error)) {
          // The partial result names internal_error only; the cause stays in the daemon log.
          this.deps.logger.log('error', 'tracked_send could not send its message', { group_id: args.group_id, ...errorFields(error) });
        }
        const wire = isIpcError(error) ? error : new IpcError(ErrorCodes.internalError, 'the linked message could not be sent');
        return { ...base, message_sent: false, partial_failure: true, error: { code: wire.code, message: wire.message, details: wire.details } };
      }
    });
  }
}
