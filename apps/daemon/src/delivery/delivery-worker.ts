import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import {
  getRuntime,
  messageFromEvent,
  renderDeliveryBatch,
  type DeliveryItem,
  type SubmitOutcome,
  type TerminalSession,
} from '@cccc/pty-runtime';
import type { RuntimeTuning } from '../config.js';
import type { Kernel } from '../kernel/kernel.js';
import { errorFields } from '../log.js';
import type { ActorQueue, WorkItem } from './actor-queue.js';
import { groupHoldReason, modeOf } from './gates.js';
import { PreambleLedger, preambleText } from './preamble.js';

/** Reference: first output + 1 s, capped at 10 s. Here: first output + a short settle, same cap. */
export const READY_TIMEOUT_MS = 10_000;
export const READY_SETTLE_MS = 300;
export const PASTE_WAIT_MS = 2_000;
export const MAX_BATCH = 16;
export const TRANSPORT = 'pty';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface DeliveryWorkerHooks {
  /** A request_reply reached the actor: its reply-notice timer starts now. */
  onAccepted(groupId: string, actorId: string, event: CCCSEventV1): void;
}

/**
 * One batch step of an actor's FIFO: gates, readiness, preamble once per session, then
 * `claimed` for every item right before the PTY write, one submit, and one outcome per item.
 */
export class DeliveryWorker {
  readonly preambles: PreambleLedger;

  constructor(
    private readonly kernel: Kernel,
    private readonly tuning: RuntimeTuning,
    private readonly hooks: DeliveryWorkerHooks,
  ) {
    this.preambles = new PreambleLedger(kernel.layout);
  }

  /** Why the actor's work must wait (paused/stopped group, disabled or not running actor), if it must. */
  holdReason(groupId: string, actorId: string): string | undefined {
    let group;
    try {
      group = this.kernel.groups.get(groupId);
    } catch {
      return 'group_not_found';
    }
    const hold = groupHoldReason(group);
    if (hold) return hold;
    const actor = group.actors.find((a) => a.id === actorId);
    if (!actor) return 'actor_not_found';
    if (actor.enabled === false) return 'actor_disabled';
    const session = this.kernel.runtimes.get(groupId, actorId)?.session;
    if (!session || session.exited) return 'not_running';
    return undefined;
  }

  async step(groupId: string, actorId: string, queue: ActorQueue): Promise<'continue' | 'held'> {
    const hold = this.holdReason(groupId, actorId);
    if (hold) {
      // message_deliver's claims never wait in memory: a claim is settled, not stranded.
      for (const item of queue.extract((i) => i.preclaimed === true)) await this.settle(groupId, actorId, item, { outcome: 'failed', reason: hold });
      return 'held';
    }
    const terminal = this.kernel.runtimes.get(groupId, actorId)!;
    const session = terminal.session!;
    await this.waitReady(session);
    if (this.holdReason(groupId, actorId) || terminal.session !== session) return 'continue';
    await this.sendPreamble(groupId, actorId, session);
    if (this.holdReason(groupId, actorId) || terminal.session !== session) return 'continue';

    const batch: WorkItem[] = [];
    const store = await this.kernel.ledger(groupId);
    for (const item of queue.take(MAX_BATCH)) {
      if (item.preclaimed) {
        batch.push(item);
        continue;
      }
      const claim = await store.claimDelivery({ actorId, sourceEventId: item.event.id, transport: TRANSPORT });
      if (claim.claimed) {
        this.kernel.published([claim.event]);
        batch.push(item);
      }
    }
    if (batch.length === 0) return 'continue';

    const actor = this.kernel.groups.get(groupId).actors.find((a) => a.id === actorId);
    const runtime = getRuntime(actor?.runtime ?? 'custom');
    let outcome: SubmitOutcome;
    try {
      const text = renderDeliveryBatch(batch.map(toDeliveryItem), { mailPending: store.inboxCount({ actorId }) });
      outcome = await terminal.submit(text, {
        submit: actor?.submit ?? runtime.submit,
        submitDelayMs: this.tuning.submitDelayMs,
        ...(runtime.submitRepeat ? { submitRepeat: runtime.submitRepeat } : {}),
      });
    } catch (error) {
      outcome = { outcome: 'ambiguous', reason: String((error as Error).message ?? error), bytesWritten: Number.NaN };
    }
    for (const item of batch) await this.settle(groupId, actorId, item, outcome);
    return 'continue';
  }

  private async settle(groupId: string, actorId: string, item: WorkItem, outcome: SubmitOutcome): Promise<void> {
    const state = outcome.outcome;
    const reason = 'reason' in outcome && typeof outcome.reason === 'string' ? outcome.reason : undefined;
    try {
      const store = await this.kernel.ledger(groupId);
      const event = await store.settleDelivery({ actorId, sourceEventId: item.event.id, state, ...(reason ? { reason } : {}) });
      this.kernel.published([event]);
    } catch (error) {
      this.kernel.logger.log('warn', 'could not settle a delivery', { group_id: groupId, actor_id: actorId, event_id: item.event.id, ...errorFields(error) });
      return;
    }
    if (state === 'accepted' && item.event.kind === 'chat.message' && modeOf(item.event) === 'request_reply') {
      this.hooks.onAccepted(groupId, actorId, item.event);
    }
  }

  /** Readiness gate: the agent's first output, then a short settle so its input loop is up. */
  private async waitReady(session: TerminalSession): Promise<void> {
    await session.waitReady(READY_TIMEOUT_MS);
    const since = session.firstOutputAt === undefined ? READY_SETTLE_MS : Date.now() - session.firstOutputAt;
    if (since < READY_SETTLE_MS) await sleep(READY_SETTLE_MS - since);
  }

  private async sendPreamble(groupId: string, actorId: string, session: TerminalSession): Promise<void> {
    if (this.preambles.sentTo(groupId, actorId, session)) return;
    const terminal = this.kernel.runtimes.get(groupId, actorId);
    if (!terminal) return;
    await session.waitBracketedPaste(PASTE_WAIT_MS);
    const group = this.kernel.groups.get(groupId);
    const actor = group.actors.find((a) => a.id === actorId);
    const runtime = getRuntime(actor?.runtime ?? 'custom');
    const result = await terminal.submit(preambleText(this.kernel.layout, group, actorId), {
      submit: actor?.submit ?? runtime.submit,
      submitDelayMs: this.tuning.submitDelayMs,
      ...(runtime.submitRepeat ? { submitRepeat: runtime.submitRepeat } : {}),
    });
    // Anything but a proven non-write counts as sent: a preamble is never pasted twice.
    if (result.outcome !== 'failed') this.preambles.markSent(groupId, actorId, session);
    if (result.outcome === 'accepted') await sleep(this.tuning.preambleGapMs);
  }
}

function toDeliveryItem(item: WorkItem): DeliveryItem {
  const e = item.event;
  if (e.kind === 'system.notify') {
    const d = e.data;
    return { kind: 'notify', notify: { kind: String(d['kind'] ?? 'info'), title: (d['title'] as string) ?? '', message: (d['message'] as string) ?? '' } };
  }
  return { kind: 'chat', message: messageFromEvent(e) };
}
