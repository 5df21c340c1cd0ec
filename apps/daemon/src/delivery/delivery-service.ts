import { GroupErrorCodes, principalOf, setActorEnabled, setGroupRunning, setGroupState } from '@cccc/groups';
import { ErrorCodes, IpcError, isEventOfKind, type CCCSEventV1, type OpArgs, type OpResult } from '@cccc/ipc-protocol';
import type { RuntimeTuning } from '../config.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { errorFields } from '../log.js';
import { ActorQueue } from './actor-queue.js';
import { DeliveryWorker, TRANSPORT } from './delivery-worker.js';
import { addressedActors, groupHoldReason, isDeliverable, modeOf, pushAudience, type DeliverableEvent } from './gates.js';
import { legacyReadTarget, withoutConsumedLegacyNudges } from './legacy-read-watermark.js';
import { NoticeTimers } from './notice-timers.js';
import { daemonError, DaemonErrorCodes } from '../errors.js';
import { LedgerErrorCodes } from '@cccc/ledger';

const RESUME_KINDS = new Set(['group.start', 'group.set_state', 'actor.update', 'actor.start']);
const BLOCKED = 'delivery_blocked: actor disabled';

/**
 * Delivery into actor runtimes (§8.6, REFERENCE_NOTES §3): plans each committed push message,
 * keeps one FIFO per actor, applies the §8.3 gates, refills at actor start, wakes for user
 * sends, serves message_deliver, and runs the notice timers.
 */
export class DeliveryService implements Disposable {
  private readonly queues = new Map<string, ActorQueue>();
  private readonly worker: DeliveryWorker;
  readonly notices: NoticeTimers;
  private readonly subscriptions: Disposable[] = [];
  /** Aborted at dispose: a step waiting on an actor's readiness gives up at once. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: DeliveryDeps,
    tuning: RuntimeTuning,
  ) {
    this.notices = new NoticeTimers({
      groups: deps.groups,
      ledgers: deps.ledgers,
      logger: deps.logger,
      holdReason: (g, a) => this.worker.holdReason(g, a),
      deliver: (g, e) => this.plan(g, e),
    });
    this.worker = new DeliveryWorker(deps, tuning, { onAccepted: (g, a, e) => this.notices.replyAccepted(g, a, e) }, this.stopping.signal);
    this.subscriptions.push(
      deps.commits.onMessageCommitted((g, e) => this.onMessageCommitted(g, e)),
      deps.commits.onPublished((events) => {
        for (const e of events) if (RESUME_KINDS.has(e.kind)) this.kickGroup(e.group_id);
      }),
      deps.actorRuntime.onActorStarted(({ groupId, actorId }) => void this.onActorStarted(groupId, actorId)),
      // Send gate: work held while the runtime waited on the user goes as soon as the wait clears.
      deps.workingState.onChanged(({ groupId, actorId, previous, current }) => {
        if (previous?.state.input_state === 'waiting_user' && current.state.input_state !== 'waiting_user') this.queues.get(`${groupId}/${actorId}`)?.kick();
      }),
    );
  }

  private queue(groupId: string, actorId: string): ActorQueue {
    const key = `${groupId}/${actorId}`;
    let q = this.queues.get(key);
    if (!q) {
      q = new ActorQueue((queue) => this.worker.step(groupId, actorId, queue));
      this.queues.set(key, q);
    }
    return q;
  }

  /** Test/diagnostic helper: resolves when the actor's worker has nothing in flight. */
  idle(groupId: string, actorId: string): Promise<void> {
    return this.queue(groupId, actorId).idle();
  }

  kickGroup(groupId: string): void {
    for (const [key, q] of this.queues) if (key.startsWith(`${groupId}/`) && q.size > 0) q.kick();
  }

  private async onMessageCommitted(groupId: string, event: CCCSEventV1): Promise<void> {
    try {
      if (event.kind === 'chat.message' && modeOf(event) === 'mail') {
        this.notices.mailCommitted(groupId, event);
        return;
      }
      if (event.kind === 'chat.message' && event.by === 'user') await this.wakeForUser(groupId, event);
      await this.plan(groupId, event);
    } catch (error) {
      // The message is committed; delivery trouble is logged, never turned into a failed send.
      this.deps.logger.log('warn', 'delivery planning failed', { group_id: groupId, event_id: event.id, ...errorFields(error) });
    }
  }

  /** Enabled recipients get the work queued; disabled ones a `delivery_blocked` fact. */
  async plan(groupId: string, event: CCCSEventV1): Promise<void> {
    if (!isDeliverable(event)) return;
    const audience = pushAudience(event, this.deps.groups.get(groupId));
    const store = await this.deps.ledgers.get(groupId);
    for (const actorId of audience.disabled) {
      const claim = await store.claimDelivery({ actorId, sourceEventId: event.id, transport: TRANSPORT });
      if (!claim.claimed) continue;
      await store.settleDelivery({ actorId, sourceEventId: event.id, state: 'failed', reason: BLOCKED });
    }
    // Enabled but not running recipients are woken, unless the group holds all work anyway.
    const wake = !groupHoldReason(this.deps.groups.get(groupId));
    for (const actorId of audience.enabled) {
      if (wake && !this.deps.actorRuntime.isRunning(groupId, actorId)) await this.deps.actorRuntime.ensureRunning(groupId, actorId, 'wake');
      this.queue(groupId, actorId).push({ event });
    }
  }

  /**
   * §8.3: a user-authored Send or Request Reply first resumes the group to active and enables
   * its addressed actors (each transition with its event), then delivers normally.
   */
  private async wakeForUser(groupId: string, event: CCCSEventV1): Promise<void> {
    const addressed = addressedActors(event, this.deps.groups.get(groupId)).map((a) => a.id);
    if (addressed.length === 0) return;
    await this.resumeGroup(groupId, 'user', 'user_send', addressed);
  }

  /** Group to active + running, the named actors enabled: only what changes is written. */
  private async resumeGroup(groupId: string, by: string, reason: string, actorIds: readonly string[]): Promise<void> {
    const layout = this.deps.layout;
    await this.deps.groupLocks.run(groupId, async () => {
      // Every user Send passes here; the cached group.yaml is dropped only after a write, or
      // each Send would parse the YAML again.
      let wrote = false;
      try {
        const group = this.deps.groups.get(groupId);
        if (group.state === 'paused' || group.state === 'idle') {
          wrote = true;
          const { old_state, new_state } = await setGroupState(layout, groupId, 'active');
          await this.deps.ledgers.append(groupId, { kind: 'group.set_state', by, data: { old_state, new_state, reason } });
        }
        for (const actorId of actorIds) {
          if (group.actors.find((a) => a.id === actorId)?.enabled !== false) continue;
          wrote = true;
          await setActorEnabled(layout, 'user', groupId, actorId, true);
          await this.deps.ledgers.append(groupId, { kind: 'actor.update', by, data: { actor_id: actorId, patch: { enabled: true }, reason } });
        }
        if (!group.running) {
          wrote = true;
          await setGroupRunning(layout, groupId, true);
          await this.deps.ledgers.append(groupId, { kind: 'group.start', by, data: { started: [...actorIds], reason } });
        }
      } finally {
        if (wrote) this.deps.groups.invalidate(groupId);
      }
    });
  }

  /**
   * At actor start: the preamble mark is cleared, current-generation push work without
   * accepted/ambiguous evidence is queued again, and pending Mail gets a fresh notice window.
   */
  private async onActorStarted(groupId: string, actorId: string): Promise<void> {
    try {
      this.worker.preambles.clear(groupId, actorId);
      const store = await this.deps.ledgers.get(groupId);
      const group = this.deps.groups.get(groupId);
      // What the ledger says is still owed, narrowed to whom the group pushes it to today.
      const owed = store.undelivered({ actorId });
      let pending = owed.events.filter((e): e is DeliverableEvent => isDeliverable(e) && pushAudience(e, group).enabled.includes(actorId));
      const legacyReads = owed.legacyReads.flatMap((e) => {
        const targetId = legacyReadTarget(e, actorId);
        return targetId === undefined ? [] : [{ id: e.id, targetId }];
      });
      // §8.6: nudges a legacy chat.read watermark marks as consumed before the upgrade stay put.
      if (legacyReads.length > 0) pending = withoutConsumedLegacyNudges(pending, legacyReads, owed.generationEventId, (id) => store.ordinalOf(id));
      const q = this.queue(groupId, actorId);
      for (const e of pending) q.push({ event: e });
      q.kick();
      if (store.inboxCount({ actorId }) > 0) this.notices.armMail(groupId, actorId);
    } catch (error) {
      this.deps.logger.log('warn', 'refill at actor start failed', { group_id: groupId, actor_id: actorId, ...errorFields(error) });
    }
  }

  /** §8.6 message_deliver: promote Mail or retry blocked/failed work, claims recorded before returning. */
  async deliverExplicit(args: OpArgs<'message_deliver'>): Promise<OpResult<'message_deliver'>> {
    const by = principalOf(args.by);
    const store = await this.deps.ledgers.get(args.group_id);
    const source = store.findById(args.source_event_id) ?? store.findByPrefix(args.source_event_id);
    if (!source || !isEventOfKind(source, 'chat.message')) {
      throw new IpcError(LedgerErrorCodes.eventNotFound, `no chat.message ${args.source_event_id} in this group`, { source_event_id: args.source_event_id });
    }
    if (by !== 'user' && by !== source.by) {
      throw new IpcError(ErrorCodes.permissionDenied, 'only the source sender or user may request delivery', { by, source_by: source.by });
    }
    const group = this.deps.groups.get(args.group_id);
    const recipients = addressedActors(source, group);
    const toClaim: string[] = [];
    for (const actorId of [...new Set(args.actor_ids)]) {
      const actor = recipients.find((a) => a.id === actorId);
      if (!actor) throw new IpcError(GroupErrorCodes.invalidRecipient, `${actorId} is not a recipient of ${source.id}`, { actor_id: actorId, source_event_id: source.id });
      const latest = store.deliveryState(source.id).find((f) => f.actor_id === actorId)?.state;
      if (latest === 'accepted') continue;
      if (latest === 'claimed') throw new IpcError(LedgerErrorCodes.deliveryInProgress, `delivery to ${actorId} is in progress`, { actor_id: actorId });
      if (latest === 'ambiguous' && !args.force_ambiguous) {
        throw daemonError(DaemonErrorCodes.deliveryAmbiguous, `delivery to ${actorId} may already have happened; pass force_ambiguous=true to send again`, { actor_id: actorId });
      }
      if (actor.enabled === false) throw daemonError(DaemonErrorCodes.deliveryBlocked, `${actorId} is disabled`, { actor_id: actorId });
      toClaim.push(actorId);
    }
    if (toClaim.length > 0) {
      if (groupHoldReason(group)) await this.resumeGroup(args.group_id, by, 'message_deliver', []);
      for (const actorId of toClaim) await this.deps.actorRuntime.start(args.group_id, actorId);
      for (const actorId of toClaim) {
        // The transport record follows the surface the actor actually runs on (§8.4).
        const transport = this.deps.actorRuntime.managedSession(args.group_id, actorId)?.runner ?? TRANSPORT;
        const claim = await store.claimDelivery({ actorId, sourceEventId: source.id, transport, forceAmbiguous: args.force_ambiguous === true });
        if (!claim.claimed) throw new IpcError(LedgerErrorCodes.deliveryInProgress, `delivery to ${actorId} changed concurrently`, { actor_id: actorId });
      }
      for (const actorId of toClaim) this.queue(args.group_id, actorId).push({ event: source, preclaimed: true });
    }
    return { event: source, actor_ids: toClaim, delivery_state: 'claimed' };
  }

  [Symbol.dispose](): void {
    this.stopping.abort();
    for (const s of this.subscriptions) s[Symbol.dispose]();
    this.notices[Symbol.dispose]();
  }
}
