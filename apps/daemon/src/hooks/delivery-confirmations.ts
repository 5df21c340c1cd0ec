import { typedMark } from '@cccc/ipc-protocol/node';

/**
 * Delivery confirmation (issue 7): after an `accepted` PTY delivery to a hooked runtime, the
 * runtime's fenced UserPromptSubmit of that submit confirms it; none within the window records it
 * unconfirmed (typed but perhaps never submitted). Nothing is ever resubmitted.
 *
 * Every submit the daemon types into a hooked session (preamble or delivery batch) is an
 * expectation, registered before the first byte is written, with the mark its prompt hook must
 * carry: that of its first line, whose delivery header names the event id (`prompt-marks.ts` of
 * ipc-protocol; the hook sends the marks of its prompt's lines, never the text). A
 * UserPromptSubmit confirms exactly the open expectations whose mark its prompt carries (several, when the runtime merged queued prompts into one): neither
 * the preamble's prompt hook nor a user's typed prompt can stand in for a delivery, and an
 * expectation left open can never take a later delivery's hook. A hook that outruns the
 * `accepted` settle is still matched. Only a runtime that reports no prompt text falls back to
 * the oldest open expectation of the session.
 */

const SESSION_ENDED = 'session_ended_before_UserPromptSubmit';

export interface ConfirmedItem {
  readonly sourceEventId: string;
  readonly deliveryId: string;
}

export interface ConfirmationOutcome {
  readonly groupId: string;
  readonly actorId: string;
  readonly item: ConfirmedItem;
  readonly state: 'confirmed' | 'unconfirmed';
  readonly evidence: string;
  readonly latencyMs: number | null;
  /** accepted → the agent running its prompt hook, when the hook said when it started. */
  readonly promptHookMs?: number | null;
}

export interface Expectation {
  readonly kind: 'preamble' | 'delivery';
  readonly session: object;
  /** The mark of the typed text's first line ('' when it has none). */
  readonly mark: string;
  acceptedAt?: number;
  items?: readonly ConfirmedItem[];
  promptAt?: number;
  /** When the agent ran the prompt hook (its own clock of the hook's start), if it said. */
  promptFiredAt?: number;
  promptEvidence?: string;
  /** Its session ended before the submit settled: no prompt hook can confirm it any more. */
  sessionEnded?: boolean;
  /** How it left the open list. */
  finishedAs?: 'confirmed' | 'unconfirmed' | 'abandoned';
  timer?: ReturnType<typeof setTimeout>;
}

export interface ConfirmationDeps {
  readonly windowMs: number;
  readonly record: (outcome: ConfirmationOutcome) => void;
  readonly now?: () => number;
}

export class DeliveryConfirmations implements Disposable {
  private readonly fifo = new Map<string, Expectation[]>();
  /** Who waits for an actor's submitted expectations to settle (a stop draining its input). */
  private readonly settleWaiters = new Map<string, Set<() => void>>();
  /** Per actor: when a prompt of its session last confirmed a submit, and when a turn of it last ended. */
  private readonly turns = new Map<string, { session: object; promptAt?: number; endedAt?: number }>();
  private readonly now: () => number;

  constructor(private readonly deps: ConfirmationDeps) {
    this.now = deps.now ?? Date.now;
  }

  private static key(groupId: string, actorId: string): string {
    return `${groupId}\u0000${actorId}`;
  }

  /** Right before a submit into a hooked session starts. */
  begin(groupId: string, actorId: string, session: object, kind: Expectation['kind'], typed: string): Expectation {
    const key = DeliveryConfirmations.key(groupId, actorId);
    const exp: Expectation = { kind, session, mark: typedMark(typed) };
    const list = this.fifo.get(key) ?? [];
    list.push(exp);
    this.fifo.set(key, list);
    return exp;
  }

  /** The submit was accepted: confirm now if its prompt hook already came, else start the window. */
  accepted(groupId: string, actorId: string, exp: Expectation, items: readonly ConfirmedItem[]): void {
    exp.acceptedAt = this.now();
    exp.items = items;
    if (exp.promptAt !== undefined) {
      this.finish(groupId, actorId, exp, 'confirmed', exp.promptEvidence ?? 'hook_UserPromptSubmit', Math.max(0, exp.promptAt - exp.acceptedAt));
      return;
    }
    if (exp.sessionEnded) {
      this.finish(groupId, actorId, exp, 'unconfirmed', SESSION_ENDED, null);
      return;
    }
    exp.timer = setTimeout(
      () => this.finish(groupId, actorId, exp, 'unconfirmed', `no_UserPromptSubmit_within_${this.deps.windowMs}ms`, null),
      this.deps.windowMs,
    );
    exp.timer.unref?.();
  }

  /** The submit was not accepted (failed or ambiguous): nothing to confirm. */
  abandon(groupId: string, actorId: string, exp: Expectation): void {
    this.remove(groupId, actorId, exp, 'abandoned');
  }

  /** A fenced UserPromptSubmit of the actor's live session was accepted; `marks` are its prompt's line marks when reported. */
  promptSubmitted(groupId: string, actorId: string, session: object | undefined, evidence: string, marks: readonly string[] | null, firedAtMs: number | null = null): void {
    const open = (this.fifo.get(DeliveryConfirmations.key(groupId, actorId)) ?? []).filter((e) => e.session === session && e.promptAt === undefined);
    const evidenced = marks === null ? open.slice(0, 1) : open.filter((e) => e.mark !== '' && marks.includes(e.mark));
    if (evidenced.length > 0) this.turnOf(groupId, actorId, session!).promptAt = this.now();
    for (const exp of evidenced) {
      exp.promptAt = this.now();
      // A hook cannot have started after it was taken: a clock that says so is not believed.
      if (firedAtMs !== null && firedAtMs <= exp.promptAt) exp.promptFiredAt = firedAtMs;
      exp.promptEvidence = evidence;
      if (exp.acceptedAt !== undefined) this.finish(groupId, actorId, exp, 'confirmed', evidence, Math.max(0, exp.promptAt - exp.acceptedAt));
    }
  }

  /**
   * Resolves once every submit into `session` begun so far has settled (taken up by its prompt
   * hook, unconfirmed, or not accepted), or after `maxMs`: what a stop waits for, so a restart
   * does not kill an agent between Enter and its prompt hook. Submits begun later are not waited
   * for (their writes queue behind the stop on the session's input lane). Answers whether one
   * was taken up.
   */
  settled(groupId: string, actorId: string, session: object, maxMs: number): Promise<'taken_up' | 'settled' | 'bound'> {
    const key = DeliveryConfirmations.key(groupId, actorId);
    const begun = (this.fifo.get(key) ?? []).filter((e) => e.session === session);
    const outcome = (): 'taken_up' | 'settled' => (begun.some((e) => e.finishedAs === 'confirmed') ? 'taken_up' : 'settled');
    if (begun.length === 0) return Promise.resolve('settled');
    return new Promise((resolve) => {
      const waiters = this.settleWaiters.get(key) ?? new Set();
      this.settleWaiters.set(key, waiters);
      const done = (how: 'taken_up' | 'settled' | 'bound') => {
        clearTimeout(timer);
        waiters.delete(check);
        if (waiters.size === 0) this.settleWaiters.delete(key);
        resolve(how);
      };
      const check = () => {
        if (begun.every((e) => e.finishedAs !== undefined)) done(outcome());
      };
      const timer = setTimeout(() => done('bound'), maxMs);
      timer.unref?.();
      waiters.add(check);
    });
  }

  /** A fenced hook that ends a turn (Stop, StopFailure, SessionEnd) of the session was taken. */
  turnEnded(groupId: string, actorId: string, session: object | undefined): void {
    if (!session) return;
    this.turnOf(groupId, actorId, session).endedAt = this.now();
    for (const check of [...(this.settleWaiters.get(DeliveryConfirmations.key(groupId, actorId)) ?? [])]) check();
  }

  /**
   * Resolves once a turn of the session has ended (its Stop hook) since its last prompt that
   * confirmed a delivery, at once when none was confirmed or one already ended, or after
   * `maxMs`: a prompt hook answers before the agent sends the prompt on to its model, so a stop
   * waits for this too. Answers when that prompt was taken (undefined: none was).
   */
  turnTakenUp(groupId: string, actorId: string, session: object, maxMs: number): Promise<number | undefined> {
    const key = DeliveryConfirmations.key(groupId, actorId);
    const ended = () => {
      const turn = this.turns.get(key);
      return !turn || turn.session !== session || turn.promptAt === undefined || (turn.endedAt !== undefined && turn.endedAt >= turn.promptAt);
    };
    const promptAt = () => {
      const turn = this.turns.get(key);
      return turn?.session === session ? turn.promptAt : undefined;
    };
    if (ended()) return Promise.resolve(promptAt());
    return new Promise((resolve) => {
      const waiters = this.settleWaiters.get(key) ?? new Set();
      this.settleWaiters.set(key, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
        if (waiters.size === 0) this.settleWaiters.delete(key);
        resolve(promptAt());
      };
      const check = () => {
        if (ended()) done();
      };
      const timer = setTimeout(done, maxMs);
      timer.unref?.();
      waiters.add(check);
    });
  }

  private turnOf(groupId: string, actorId: string, session: object): { session: object; promptAt?: number; endedAt?: number } {
    const key = DeliveryConfirmations.key(groupId, actorId);
    let turn = this.turns.get(key);
    if (!turn || turn.session !== session) this.turns.set(key, (turn = { session }));
    return turn;
  }

  /**
   * The session is gone (stopped, replaced or exited): no prompt hook of it can come any more,
   * so its submitted deliveries are unconfirmed now, not at the window's end, and a submit still
   * settling is unconfirmed as soon as it is accepted.
   */
  sessionEnded(groupId: string, actorId: string, session: object): void {
    const key = DeliveryConfirmations.key(groupId, actorId);
    if (this.turns.get(key)?.session === session) this.turns.delete(key);
    for (const exp of [...(this.fifo.get(DeliveryConfirmations.key(groupId, actorId)) ?? [])]) {
      if (exp.session !== session || exp.promptAt !== undefined) continue;
      if (exp.acceptedAt === undefined) exp.sessionEnded = true;
      else this.finish(groupId, actorId, exp, 'unconfirmed', SESSION_ENDED, null);
    }
  }

  /** Expectations still open for an actor (diagnostics and tests). */
  pending(groupId: string, actorId: string): number {
    return this.fifo.get(DeliveryConfirmations.key(groupId, actorId))?.length ?? 0;
  }

  private finish(groupId: string, actorId: string, exp: Expectation, state: 'confirmed' | 'unconfirmed', evidence: string, latencyMs: number | null): void {
    if (!this.remove(groupId, actorId, exp, state)) return;
    if (exp.kind !== 'delivery') return;
    // The hook may have started before Enter's write returned (the agent took the paste's end): 0.
    const promptHookMs = state === 'confirmed' && exp.promptFiredAt !== undefined && exp.acceptedAt !== undefined ? Math.max(0, exp.promptFiredAt - exp.acceptedAt) : null;
    for (const item of exp.items ?? []) this.deps.record({ groupId, actorId, item, state, evidence, latencyMs, promptHookMs });
  }

  private remove(groupId: string, actorId: string, exp: Expectation, as: NonNullable<Expectation['finishedAs']>): boolean {
    if (exp.timer) clearTimeout(exp.timer);
    const key = DeliveryConfirmations.key(groupId, actorId);
    const list = this.fifo.get(key);
    const i = list?.indexOf(exp) ?? -1;
    if (!list || i < 0) return false;
    list.splice(i, 1);
    exp.finishedAs = as;
    if (list.length === 0) this.fifo.delete(key);
    for (const check of [...(this.settleWaiters.get(key) ?? [])]) check();
    return true;
  }

  /** Shutdown: open windows are dropped (a confirmation is evidence, never a retry trigger). */
  [Symbol.dispose](): void {
    for (const list of this.fifo.values()) {
      for (const e of list) {
        if (e.timer) clearTimeout(e.timer);
        e.finishedAs = 'abandoned';
      }
    }
    this.fifo.clear();
    this.turns.clear();
    for (const waiters of [...this.settleWaiters.values()]) for (const check of [...waiters]) check();
  }
}
