import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import type { DeliveryEvent, LedgerStore } from '@cccc/ledger';
import {
  getRuntime,
  renderDeliveryBatch,
  type DeliveryItem,
  type SubmitOutcome,
  type TerminalSession,
} from '@cccc/pty-runtime';
import type { ManagedEntry } from '../runtime/managed-actors.js';
import type { RuntimeTuning } from '../config.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { errorFields } from '../log.js';
import type { ConfirmedItem, Expectation } from '../hooks/delivery-confirmations.js';
import { sessionIdentity } from '../hooks/session-identity.js';
import type { ActorQueue, WorkItem } from './actor-queue.js';
import { pause, waitForEvent, waitUntil } from './abortable-wait.js';
import { groupHoldReason, modeOf } from './gates.js';
import { PreambleLedger, preambleText } from './preamble.js';

/** Reference: first output + 1 s, capped at 10 s. Here: first output + a short settle, same cap. */
export const READY_TIMEOUT_MS = 10_000;
export const READY_SETTLE_MS = 300;
export const PASTE_WAIT_MS = 2_000;
export const MAX_BATCH = 16;
export const TRANSPORT = 'pty';
/** runtime.delivery transport of a managed codex actor (REFERENCE_NOTES §1.4). */
export const MANAGED_TRANSPORT = 'codex_app_server';

/** Up to MAX_BATCH queued items this worker now owns: pre-claimed ones, and those whose claim it won. */
async function claimBatch(store: Pick<LedgerStore, 'claimDelivery'>, actorId: string, queue: ActorQueue, transport: string): Promise<WorkItem[]> {
  const batch: WorkItem[] = [];
  for (const item of queue.take(MAX_BATCH)) {
    if (item.preclaimed) {
      batch.push(item);
      continue;
    }
    const claim = await store.claimDelivery({ actorId, sourceEventId: item.event.id, transport });
    if (claim.claimed) batch.push(item);
  }
  return batch;
}

export interface DeliveryWorkerHooks {
  /** A request_reply reached the actor: its reply-notice timer starts now. */
  onAccepted(groupId: string, actorId: string, event: CCCSEventV1): void;
}

/**
 * One batch step of an actor's FIFO: gates, readiness, the start-up prompt once per session
 * (with the first batch for agent runtimes, before it for custom programs), then `claimed` for
 * every item right before the PTY write, one submit, and one outcome per item.
 */
export class DeliveryWorker {
  readonly preambles: PreambleLedger;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly tuning: RuntimeTuning,
    private readonly hooks: DeliveryWorkerHooks,
    /** Shutdown: every wait of a step ends, and the step leaves its work queued. */
    private readonly stopping: AbortSignal,
  ) {
    this.preambles = new PreambleLedger(deps.layout);
  }

  /** Why the actor's work must wait (paused/stopped group, disabled or not running actor), if it must. */
  holdReason(groupId: string, actorId: string): string | undefined {
    let group;
    try {
      group = this.deps.groups.get(groupId);
    } catch {
      return 'group_not_found';
    }
    const hold = groupHoldReason(group);
    if (hold) return hold;
    const actor = group.actors.find((a) => a.id === actorId);
    if (!actor) return 'actor_not_found';
    if (actor.enabled === false) return 'actor_disabled';
    // A managed actor runs while its provider session does (its TUI may be re-opening).
    if (!this.deps.actorRuntime.isRunning(groupId, actorId)) return 'not_running';
    return undefined;
  }

  async step(groupId: string, actorId: string, queue: ActorQueue): Promise<'continue' | 'held'> {
    const hold = this.holdReason(groupId, actorId);
    if (hold) {
      // message_deliver's claims never wait in memory: a claim is settled, not stranded.
      for (const item of queue.extract((i) => i.preclaimed === true)) await this.settle(groupId, actorId, item, { outcome: 'failed', reason: hold });
      return 'held';
    }
    const managed = this.deps.actorRuntime.managedSession(groupId, actorId);
    if (managed) return this.stepManaged(groupId, actorId, queue, managed);
    const terminal = this.deps.runtimes.get(groupId, actorId)!;
    const session = terminal.session!;
    await this.waitReady(session);
    if (this.stopping.aborted) return 'held';
    if (this.holdReason(groupId, actorId) || terminal.session !== session) return 'continue';
    if (await this.heldOnUser(groupId, actorId, queue)) return 'held';
    const startup = this.startupWithTask(groupId, actorId, session);
    if (startup) await this.awaitPasteMode(session);
    else await this.sendPreamble(groupId, actorId, session);
    if (this.stopping.aborted) return 'held';
    if (this.holdReason(groupId, actorId) || terminal.session !== session) return 'continue';
    if (await this.heldOnUser(groupId, actorId, queue)) return 'held';

    const store = await this.deps.ledgers.get(groupId);
    const batch = await claimBatch(store, actorId, queue, TRANSPORT);
    if (batch.length === 0) return 'continue';

    const actor = this.deps.groups.get(groupId).actors.find((a) => a.id === actorId);
    const runtime = getRuntime(actor?.runtime ?? 'custom');
    let expectation: Expectation | undefined;
    let outcome: SubmitOutcome;
    try {
      const rendered = renderDeliveryBatch(batch.map(toDeliveryItem), { mailPending: store.inboxCount({ actorId }) });
      const text = startup ? withStartupPrompt(preambleText(this.deps.layout, this.deps.groups.get(groupId), actorId), rendered) : rendered;
      expectation = sessionIdentity(session) ? this.deps.confirmations.begin(groupId, actorId, session, 'delivery', text) : undefined;
      outcome = await terminal.submit(text, {
        submit: actor?.submit ?? runtime.submit,
        submitDelayMs: this.tuning.submitDelayMs,
        ...(runtime.pasteSettle && this.tuning.submitEvidence ? { pasteSettle: runtime.pasteSettle } : {}),
        ...(runtime.submitRepeat ? { submitRepeat: runtime.submitRepeat } : {}),
      });
    } catch (error) {
      outcome = { outcome: 'ambiguous', reason: String((error as Error).message ?? error), bytesWritten: Number.NaN };
    }
    // The start-up prompt stays pending until a submission carrying it is accepted (spec §8.4).
    if (startup && outcome.outcome === 'accepted') this.preambles.markSent(groupId, actorId, session);
    const accepted: ConfirmedItem[] = [];
    for (const item of batch) {
      const deliveryId = await this.settle(groupId, actorId, item, outcome);
      if (deliveryId) accepted.push({ sourceEventId: item.event.id, deliveryId });
    }
    if (expectation) {
      if (accepted.length > 0) this.deps.confirmations.accepted(groupId, actorId, expectation, accepted);
      else this.deps.confirmations.abandon(groupId, actorId, expectation);
    }
    return 'continue';
  }

  /**
   * A managed actor's batch goes over its session protocol (Codex `turn/start`), not typed into
   * the TUI: claimed before the request, then accepted when the provider admitted the turn,
   * failed when it refused it (nothing started), ambiguous when the connection broke after the
   * request went out. The start-up prompt rides with the thread's first admitted batch.
   */
  private async stepManaged(groupId: string, actorId: string, queue: ActorQueue, managed: ManagedEntry): Promise<'continue' | 'held'> {
    const store = await this.deps.ledgers.get(groupId);
    const batch = await claimBatch(store, actorId, queue, managed.runner);
    if (batch.length === 0) return 'continue';
    const actor = this.deps.groups.get(groupId).actors.find((a) => a.id === actorId);
    const startup = this.tuning.preambleWithFirstTask && getRuntime(actor?.runtime ?? 'custom').preambleWithFirstTask && !managed.startupPromptSent;
    let outcome: SubmitOutcome;
    try {
      // §8.4: the attempt is durable before the prompt goes out; if it cannot be recorded, nothing is sent.
      this.deps.actorRuntime.managed.markPromptAttempted(managed);
    } catch (error) {
      for (const item of batch) await this.settle(groupId, actorId, item, { outcome: 'failed', reason: `prompt attempt not recorded: ${String((error as Error).message ?? error)}` });
      return 'continue';
    }
    try {
      const rendered = renderDeliveryBatch(batch.map(toDeliveryItem), { mailPending: store.inboxCount({ actorId }) });
      const text = startup ? withStartupPrompt(preambleText(this.deps.layout, this.deps.groups.get(groupId), actorId), rendered) : rendered;
      const result = await managed.session.deliver(text);
      outcome =
        result.outcome === 'accepted'
          ? { outcome: 'accepted', bytesWritten: Buffer.byteLength(text) }
          : result.outcome === 'failed'
            ? { outcome: 'failed', reason: result.reason }
            : { outcome: 'ambiguous', reason: result.reason, bytesWritten: Number.NaN };
    } catch (error) {
      outcome = { outcome: 'ambiguous', reason: String((error as Error).message ?? error), bytesWritten: Number.NaN };
    }
    // One start-up prompt per provider thread (durable with its receipt), not per provider process.
    if (startup && outcome.outcome === 'accepted') this.deps.actorRuntime.managed.markStartupPromptSent(managed);
    for (const item of batch) await this.settle(groupId, actorId, item, outcome);
    return 'continue';
  }

  /**
   * Send gate (issue 7): while the runtime waits on a permission prompt (`waiting_user` from
   * authoritative hook state) nothing is typed into it. The work stays queued, preclaimed items
   * keep their claim, and the queue looks again after a tick (or sooner, when the working state
   * service reports the wait cleared).
   */
  private async heldOnUser(groupId: string, actorId: string, queue: ActorQueue): Promise<boolean> {
    const { state } = await this.deps.workingState.derive(groupId, actorId);
    if (state.input_state !== 'waiting_user') return false;
    setTimeout(() => queue.kick(), this.tuning.workingStateTickMs).unref();
    return true;
  }

  /** Records the outcome; returns the delivery id when it was recorded as accepted. */
  private async settle(groupId: string, actorId: string, item: WorkItem, outcome: SubmitOutcome): Promise<string | undefined> {
    const state = outcome.outcome;
    const reason = 'reason' in outcome && typeof outcome.reason === 'string' ? outcome.reason : undefined;
    let event: DeliveryEvent;
    try {
      const store = await this.deps.ledgers.get(groupId);
      event = await store.settleDelivery({ actorId, sourceEventId: item.event.id, state, ...(reason ? { reason } : {}) });
    } catch (error) {
      this.deps.logger.log('warn', 'could not settle a delivery', { group_id: groupId, actor_id: actorId, event_id: item.event.id, ...errorFields(error) });
      return undefined;
    }
    if (state === 'accepted' && item.event.kind === 'chat.message' && modeOf(item.event) === 'request_reply') {
      this.hooks.onAccepted(groupId, actorId, item.event);
    }
    return state === 'accepted' ? event.data.delivery_id : undefined;
  }

  /** Readiness gate: the agent's first output, then a short settle so its input loop is up. */
  private async waitReady(session: TerminalSession): Promise<void> {
    if (session.firstOutputAt === undefined) await waitUntil(session.ready, READY_TIMEOUT_MS, this.stopping);
    const since = session.firstOutputAt === undefined ? READY_SETTLE_MS : Date.now() - session.firstOutputAt;
    if (since < READY_SETTLE_MS) await pause(READY_SETTLE_MS - since, this.stopping);
  }

  /**
   * Whether this step's batch carries the session's start-up prompt: an agent runtime's session
   * that has not had it yet (custom programs get it as a submission of its own, sendPreamble).
   */
  private startupWithTask(groupId: string, actorId: string, session: TerminalSession): boolean {
    if (!this.tuning.preambleWithFirstTask || this.preambles.sentTo(groupId, actorId, session)) return false;
    const actor = this.deps.groups.get(groupId).actors.find((a) => a.id === actorId);
    return getRuntime(actor?.runtime ?? 'custom').preambleWithFirstTask;
  }

  /** A session's first paste waits (bounded) for the TUI to turn bracketed paste on. */
  private async awaitPasteMode(session: TerminalSession): Promise<void> {
    if (!session.bracketedPaste) await waitForEvent(session.onBracketedPasteChange, (on) => on, PASTE_WAIT_MS, this.stopping);
  }

  private async sendPreamble(groupId: string, actorId: string, session: TerminalSession): Promise<void> {
    if (this.preambles.sentTo(groupId, actorId, session)) return;
    const terminal = this.deps.runtimes.get(groupId, actorId);
    if (!terminal) return;
    await this.awaitPasteMode(session);
    if (this.stopping.aborted) return;
    const group = this.deps.groups.get(groupId);
    const actor = group.actors.find((a) => a.id === actorId);
    const runtime = getRuntime(actor?.runtime ?? 'custom');
    // The preamble's own prompt hook must not be taken for the first delivery's confirmation.
    const text = preambleText(this.deps.layout, group, actorId);
    const expectation = sessionIdentity(session) ? this.deps.confirmations.begin(groupId, actorId, session, 'preamble', text) : undefined;
    const result = await terminal.submit(text, {
      submit: actor?.submit ?? runtime.submit,
      submitDelayMs: this.tuning.submitDelayMs,
      ...(runtime.pasteSettle && this.tuning.submitEvidence ? { pasteSettle: runtime.pasteSettle } : {}),
      ...(runtime.submitRepeat ? { submitRepeat: runtime.submitRepeat } : {}),
    });
    // Anything but a proven non-write counts as sent: a preamble is never pasted twice.
    if (result.outcome !== 'failed') this.preambles.markSent(groupId, actorId, session);
    if (expectation) {
      if (result.outcome === 'accepted') this.deps.confirmations.accepted(groupId, actorId, expectation, []);
      else this.deps.confirmations.abandon(groupId, actorId, expectation);
    }
    if (result.outcome !== 'accepted') return;
    // The gap lets the agent take the preamble up before the first delivery is typed. A hooked
    // session shows when it has (the preamble's prompt hook): the gap ends there, at most the
    // configured gap; any other session waits the whole gap.
    if (expectation && this.tuning.submitEvidence) await waitUntil(this.deps.confirmations.settled(groupId, actorId, session, this.tuning.preambleGapMs), this.tuning.preambleGapMs, this.stopping);
    else await pause(this.tuning.preambleGapMs, this.stopping);
  }
}

/** The start-up prompt, then the first task, as the one text of a submission. */
export function withStartupPrompt(startupPrompt: string, task: string): string {
  return `${startupPrompt.trimEnd()}\n\n${task}`;
}

function toDeliveryItem(item: WorkItem): DeliveryItem {
  const e = item.event;
  if (e.kind === 'system.notify') {
    const { kind, title, message } = e.data;
    return { kind: 'notify', notify: { kind, title: title ?? '', message: message ?? '' } };
  }
  return { kind: 'chat', message: e };
}
